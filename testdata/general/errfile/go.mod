module example.com/errfile

go 1.26
