module example.com/record

go 1.26
