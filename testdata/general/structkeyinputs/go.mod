module example.com/terrain

go 1.22
