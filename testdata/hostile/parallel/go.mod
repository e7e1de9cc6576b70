module example.com/parallel

go 1.22
