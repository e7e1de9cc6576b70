module example.com/lexer

go 1.26
