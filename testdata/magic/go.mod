module example.com/magic

go 1.22
