module example.com/gen

go 1.22
