module example.com/meter

go 1.22
