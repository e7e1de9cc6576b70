module example.com/richinputs

go 1.22
