module example.com/wrongput

go 1.22
