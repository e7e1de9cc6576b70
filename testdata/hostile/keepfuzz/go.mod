module example.com/keepfuzz

go 1.22
