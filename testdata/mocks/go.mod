module example.com/mocks

go 1.22
