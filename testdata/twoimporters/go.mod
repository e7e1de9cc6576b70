module example.com/twoimporters

go 1.22
