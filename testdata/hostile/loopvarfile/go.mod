module example.com/loopvarfile

go 1.23
