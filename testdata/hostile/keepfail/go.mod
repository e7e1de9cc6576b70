module example.com/keepfail

go 1.22
