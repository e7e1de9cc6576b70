// Package lex splits a small expression language into tokens. Its lexer
// is unexported: NewLexer returns it, and callers call Next until EOF.
package lex

// Kind is the kind of a token.
type Kind int

const (
	EOF Kind = iota
	Number
	Ident
	Op
	Escape
	Illegal
)

// Token is one token of the input.
type Token struct {
	Kind Kind
	Text string
}

type lexer struct {
	src string
	pos int
}

// NewLexer returns a lexer of src.
func NewLexer(src string) *lexer {
	return &lexer{src: src}
}

// Next returns the next token.
func (l *lexer) Next() Token {
	for l.pos < len(l.src) && l.src[l.pos] == ' ' {
		l.pos++
	}
	if l.pos >= len(l.src) {
		return Token{Kind: EOF}
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c >= '0' && c <= '9':
		for l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '9' {
			l.pos++
		}
		return Token{Kind: Number, Text: l.src[start:l.pos]}
	case c >= 'a' && c <= 'z':
		for l.pos < len(l.src) && l.src[l.pos] >= 'a' && l.src[l.pos] <= 'z' {
			l.pos++
		}
		return Token{Kind: Ident, Text: l.src[start:l.pos]}
	case c == '+' || c == '-' || c == '*':
		l.pos++
		return Token{Kind: Op, Text: string(c)}
	case c == '\\':
		// An escape is a backslash and the character after it.
		l.pos += 2
		return Token{Kind: Escape, Text: l.src[start+1 : l.pos]}
	}
	l.pos++
	return Token{Kind: Illegal, Text: string(c)}
}
