module example.com/isolate

go 1.22
