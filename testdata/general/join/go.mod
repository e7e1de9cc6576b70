module example.com/join

go 1.22
