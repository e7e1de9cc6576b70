module example.com/app

go 1.22

require example.com/limits v0.0.0

replace example.com/limits => ../limits
