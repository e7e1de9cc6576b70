module example.com/decode

go 1.22
