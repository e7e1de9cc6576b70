module example.com/soundness

go 1.22
