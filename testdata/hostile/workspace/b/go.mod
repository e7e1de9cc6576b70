module example.com/b

go 1.22

require example.com/a v0.0.0
