module example.com/keptstale

go 1.22
