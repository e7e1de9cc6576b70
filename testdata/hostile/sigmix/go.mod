module example.com/sigmix

go 1.22
