module example.com/badcompile

go 1.22
