module example.com/automocks

go 1.22
