module example.com/resume

go 1.26
