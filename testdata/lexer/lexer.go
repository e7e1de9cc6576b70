// Package lexer classifies the runes of a string, as hand-written lexers
// do: the solver's small-domain benchmark (bench/solverbench) records the
// queries of exploring it.
package lexer

import "unicode"

// Kinds returns one letter per rune of s: d for a digit, U for an upper
// case letter, l for another letter or '_', s for a space, and nothing for
// other runes.
func Kinds(s string) string {
	kinds := ""
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			kinds += "d"
		case unicode.IsUpper(r):
			kinds += "U"
		case r == '_' || unicode.IsLetter(r):
			kinds += "l"
		case unicode.IsSpace(r):
			kinds += "s"
		}
	}
	return kinds
}
