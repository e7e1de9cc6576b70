module example.com/ifacelit

go 1.22
