package rt

import "unicode"

// Models of the unicode classes lexers test runes with. For a symbolic
// rune, "the rune is ASCII" is an implicit branch of the run; an ASCII
// rune's class is a range test on it (exact: for runes below 0x80 the
// unicode package's tables say what these ranges say), and a rune that is
// not ASCII records a concretization (the tables are not modelled).

var (
	idUnicodeIsDigit  = funcID("unicode.IsDigit")
	idUnicodeIsLetter = funcID("unicode.IsLetter")
	idUnicodeIsSpace  = funcID("unicode.IsSpace")
	idUnicodeIsUpper  = funcID("unicode.IsUpper")
	idUnicodeIsLower  = funcID("unicode.IsLower")
)

// runeRange is the shadow of lo <= r <= hi for a rune shadow r.
func runeRange(r S, lo, hi rune) S {
	ge := mk(Node{Op: OpGe, K: KBool, K2: KInt32, A: r, B: constant(KInt32, uint64(lo))})
	le := mk(Node{Op: OpLe, K: KBool, K2: KInt32, A: r, B: constant(KInt32, uint64(hi))})
	return mk(Node{Op: OpLAnd, K: KBool, A: ge, B: le})
}

// runeClass is the prologue and epilogue of a class model (function id)
// of r, whose result is res; ranges are the class's ASCII runes.
func runeClass(id uint32, r rune, res bool, ranges [][2]rune) bool {
	if !on.Load() || !Enter(id, 1) {
		return res
	}
	rs := In(0, uint64(int64(r)))
	if rs == 0 {
		return res
	}
	isASCII := r >= 0 && r < utf8RuneSelf
	Imp(0, isASCII, runeRange(rs, 0, utf8RuneSelf-1))
	if !isASCII {
		Conc(0, "unicode class of a rune that is not ASCII")
		return res
	}
	in := constant(KBool, 0)
	for _, rg := range ranges {
		in = mk(Node{Op: OpLOr, K: KBool, A: in, B: runeRange(rs, rg[0], rg[1])})
	}
	Ret(id, Arg{S: in, F: B(res)})
	return res
}

// The ASCII runes of each class, as ranges.
var (
	asciiDigits  = [][2]rune{{'0', '9'}}
	asciiLetters = [][2]rune{{'a', 'z'}, {'A', 'Z'}}
	asciiSpaces  = [][2]rune{{'\t', '\r'}, {' ', ' '}}
	asciiUpper   = [][2]rune{{'A', 'Z'}}
	asciiLower   = [][2]rune{{'a', 'z'}}
)

// UnicodeIsDigit is unicode.IsDigit.
func UnicodeIsDigit(r rune) bool {
	return runeClass(idUnicodeIsDigit, r, unicode.IsDigit(r), asciiDigits)
}

// UnicodeIsLetter is unicode.IsLetter.
func UnicodeIsLetter(r rune) bool {
	return runeClass(idUnicodeIsLetter, r, unicode.IsLetter(r), asciiLetters)
}

// UnicodeIsSpace is unicode.IsSpace.
func UnicodeIsSpace(r rune) bool {
	return runeClass(idUnicodeIsSpace, r, unicode.IsSpace(r), asciiSpaces)
}

// UnicodeIsUpper is unicode.IsUpper.
func UnicodeIsUpper(r rune) bool {
	return runeClass(idUnicodeIsUpper, r, unicode.IsUpper(r), asciiUpper)
}

// UnicodeIsLower is unicode.IsLower.
func UnicodeIsLower(r rune) bool {
	return runeClass(idUnicodeIsLower, r, unicode.IsLower(r), asciiLower)
}
