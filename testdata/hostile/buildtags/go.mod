module example.com/buildtags

go 1.22
