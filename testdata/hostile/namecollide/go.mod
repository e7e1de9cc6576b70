module example.com/namecollide

go 1.22
