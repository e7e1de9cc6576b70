module example.com/roster

go 1.22
