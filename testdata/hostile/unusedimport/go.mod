module example.com/unusedimport

go 1.22
