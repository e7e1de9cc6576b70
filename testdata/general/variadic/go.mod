module example.com/variadic

go 1.22
