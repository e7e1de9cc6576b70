module example.com/behaviour

go 1.22
