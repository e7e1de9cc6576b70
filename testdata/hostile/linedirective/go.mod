module example.com/linedirective

go 1.22
