module example.com/stalefile

go 1.22
