module example.com/longconst

go 1.22
