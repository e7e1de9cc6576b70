module example.com/rangeassign

go 1.22
