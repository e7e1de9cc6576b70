module example.com/auto

go 1.22
