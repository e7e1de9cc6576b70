module example.com/nofindings

go 1.26
