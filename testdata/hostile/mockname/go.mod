module example.com/mockname

go 1.22
