module example.com/kinds

go 1.22
