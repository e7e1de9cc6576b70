module example.com/lex

go 1.22
