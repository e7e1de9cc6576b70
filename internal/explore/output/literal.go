package output

import "strings"

// Limits of the values written in the text output.
const (
	textString = 40  // the longest string literal shown whole
	textInput  = 160 // the longest input shown whole
)

// shortInput is an input as the text output shows it: every quoted
// string literal longer than textString cut with an ellipsis after its
// first bytes ("aaaa…"), and the whole cut after textInput bytes at a
// boundary between values (", …").
func shortInput(in string) string {
	var b strings.Builder
	for i := 0; i < len(in); {
		if in[i] != '"' && in[i] != '`' {
			b.WriteByte(in[i])
			i++
			continue
		}
		j := literalEnd(in, i)
		lit := in[i:j]
		if len(lit) > textString {
			lit = lit[:cutLiteral(lit, textString-4)] + "…" + lit[:1]
		}
		b.WriteString(lit)
		i = j
	}
	out := b.String()
	if len(out) <= textInput {
		return out
	}
	cut := strings.LastIndex(out[:textInput], ", ")
	if cut <= 0 {
		cut = textInput
		for cut > 0 && !startsRune(out[cut]) {
			cut--
		}
		return out[:cut] + "…"
	}
	return out[:cut] + ", …"
}

// literalEnd is the index after the quoted literal starting at in[i]
// (the end of in if it is not closed).
func literalEnd(in string, i int) int {
	q := in[i]
	for j := i + 1; j < len(in); j++ {
		switch {
		case in[j] == '\\' && q == '"':
			j++
		case in[j] == q:
			return j + 1
		}
	}
	return len(in)
}

// cutLiteral is the longest prefix of the quoted literal lit, at most
// n bytes, that ends between two characters: not inside an escape
// sequence or a UTF-8 sequence.
func cutLiteral(lit string, n int) int {
	end := 1
	for j := 1; j < len(lit); {
		k := j + 1
		if lit[0] == '"' && lit[j] == '\\' && j+1 < len(lit) {
			switch lit[j+1] {
			case 'x':
				k = j + 4
			case 'u':
				k = j + 6
			case 'U':
				k = j + 10
			case '0', '1', '2', '3', '4', '5', '6', '7':
				k = j + 4
			default:
				k = j + 2
			}
		} else {
			for k < len(lit) && !startsRune(lit[k]) {
				k++
			}
		}
		if k > n {
			break
		}
		end, j = k, k
	}
	return end
}

// startsRune reports whether byte c begins a UTF-8 sequence.
func startsRune(c byte) bool { return c&0xC0 != 0x80 }
