module example.com/precondition

go 1.22
