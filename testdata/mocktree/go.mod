module example.com/mocktree

go 1.24
