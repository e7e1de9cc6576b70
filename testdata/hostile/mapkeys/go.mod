module example.com/mapkeys

go 1.22
