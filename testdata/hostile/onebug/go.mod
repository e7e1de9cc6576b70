module example.com/onebug

go 1.22
