module example.com/earlierstate

go 1.22
