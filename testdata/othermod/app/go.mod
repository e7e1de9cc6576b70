module example.com/app

go 1.22

require example.com/lib v1.0.0
