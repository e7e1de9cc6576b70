module example.com/twotargets

go 1.22
