module example.com/bag

go 1.22
