module example.com/invalidreceiver

go 1.22
