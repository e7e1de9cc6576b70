module example.com/recursion

go 1.22
