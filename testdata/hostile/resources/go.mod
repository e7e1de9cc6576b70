module example.com/resources

go 1.22
