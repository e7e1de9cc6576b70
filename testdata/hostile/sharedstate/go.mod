module example.com/sharedstate

go 1.22
