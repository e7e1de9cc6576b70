module example.com/describe

go 1.26
