module example.com/slowtest

go 1.22
