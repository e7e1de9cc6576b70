package rt

import "unicode/utf8"

// Models of unicode/utf8 for ASCII text. Whether the bytes (or the rune)
// the function looks at are ASCII is an implicit branch of the run; for
// ASCII the results are exact (a valid string whose rune count is its
// length, a rune of one byte), and other text records a concretization
// (UTF-8 sequences are not modelled).

var (
	idUTF8ValidString        = funcID("unicode/utf8.ValidString")
	idUTF8RuneCountInString  = funcID("unicode/utf8.RuneCountInString")
	idUTF8DecodeRuneInString = funcID("unicode/utf8.DecodeRuneInString")
	idUTF8RuneLen            = funcID("unicode/utf8.RuneLen")
)

// asciiString records the implicit branch "every byte of s is ASCII" for
// a string shadow ss (over every position an input can have, each guarded
// by the symbolic length) and reports whether s is ASCII; a string that is
// not records a concretization (why).
func asciiString(ss S, s string, why string) bool {
	L := StrLen(ss)
	m, approx := searchLen(len(s))
	if approx {
		Conc(0, why)
	}
	all := constant(KBool, 1)
	for i := 0; i < m; i++ {
		in := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L})
		b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		low := mk(Node{Op: OpLt, K: KBool, K2: KUint8, A: b, B: constant(KUint8, utf8RuneSelf)})
		all = mk(Node{Op: OpLAnd, K: KBool, A: all, B: mk(Node{Op: OpIte, K: KBool, A: in, B: low, C: constant(KBool, 1)})})
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		ascii = ascii && s[i] < utf8RuneSelf
	}
	Imp(0, ascii, all)
	if !ascii {
		Conc(0, why)
	}
	return ascii
}

// UTF8ValidString is utf8.ValidString: an ASCII string is valid.
func UTF8ValidString(s string) bool {
	r := utf8.ValidString(s)
	if on.Load() && Enter(idUTF8ValidString, 1) {
		if ss := In(0, FS(s)); ss != 0 {
			asciiString(ss, s, "utf8.ValidString of a string that is not ASCII")
		}
	}
	return r
}

// UTF8RuneCountInString is utf8.RuneCountInString: an ASCII string has as
// many runes as bytes.
func UTF8RuneCountInString(s string) int {
	r := utf8.RuneCountInString(s)
	if on.Load() && Enter(idUTF8RuneCountInString, 1) {
		if ss := In(0, FS(s)); ss != 0 && asciiString(ss, s, "utf8.RuneCountInString of a string that is not ASCII") {
			Ret(idUTF8RuneCountInString, Arg{S: StrLen(ss), F: uint64(r)})
		}
	}
	return r
}

// UTF8DecodeRuneInString is utf8.DecodeRuneInString: an empty string gives
// (RuneError, 0), one that starts with an ASCII byte gives that byte and
// 1 (both implicit branches); another first byte is a concretization.
func UTF8DecodeRuneInString(s string) (rune, int) {
	r, size := utf8.DecodeRuneInString(s)
	if on.Load() && Enter(idUTF8DecodeRuneInString, 1) {
		if ss := In(0, FS(s)); ss != 0 {
			decodeModel(idUTF8DecodeRuneInString, ss, s, false, r, size)
		}
	}
	return r, size
}

// decodeModel leaves the shadows of the results r and size of decoding the
// first (last: the last) rune of s (shadow ss): "s is empty" and "the byte
// is ASCII" are implicit branches; the rune of an ASCII byte is that byte,
// and its size 1. Another byte records a concretization.
func decodeModel(id uint32, ss S, s string, last bool, r rune, size int) {
	L := StrLen(ss)
	empty := len(s) == 0
	Imp(0, empty, mk(Node{Op: OpEq, K: KBool, K2: KInt, A: L, B: intS(0)}))
	if empty {
		return
	}
	at, i := intS(0), 0
	if last {
		at, i = mk(Node{Op: OpSub, K: KInt, A: L, B: intS(1)}), len(s)-1
	}
	b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: at})
	ascii := s[i] < utf8RuneSelf
	Imp(0, ascii, mk(Node{Op: OpLt, K: KBool, K2: KUint8, A: b, B: constant(KUint8, utf8RuneSelf)}))
	if !ascii {
		Conc(0, "decoding a rune from a byte that is not ASCII")
		return
	}
	Ret(id, Arg{S: Conv(KInt32, KUint8, b), F: uint64(int64(r))}, Arg{F: uint64(size)})
}

var (
	idUTF8DecodeLastRuneInString = funcID("unicode/utf8.DecodeLastRuneInString")
	idUTF8DecodeRune             = funcID("unicode/utf8.DecodeRune")
	idUTF8DecodeLastRune         = funcID("unicode/utf8.DecodeLastRune")
	idUTF8Valid                  = funcID("unicode/utf8.Valid")
	idUTF8RuneCount              = funcID("unicode/utf8.RuneCount")
)

// UTF8DecodeLastRuneInString is utf8.DecodeLastRuneInString: an empty
// string gives (RuneError, 0), one that ends with an ASCII byte gives that
// byte and 1 (both implicit branches); another last byte is a
// concretization.
func UTF8DecodeLastRuneInString(s string) (rune, int) {
	r, size := utf8.DecodeLastRuneInString(s)
	if on.Load() && Enter(idUTF8DecodeLastRuneInString, 1) {
		if ss := In(0, FS(s)); ss != 0 {
			decodeModel(idUTF8DecodeLastRuneInString, ss, s, true, r, size)
		}
	}
	return r, size
}

// UTF8DecodeRune is utf8.DecodeRune (see UTF8DecodeRuneInString).
func UTF8DecodeRune(p []byte) (rune, int) {
	r, size := utf8.DecodeRune(p)
	if on.Load() && Enter(idUTF8DecodeRune, 1) {
		if ss, _ := byteArg(0, p); ss != 0 {
			decodeModel(idUTF8DecodeRune, ss, string(p), false, r, size)
		}
	}
	return r, size
}

// UTF8DecodeLastRune is utf8.DecodeLastRune (see
// UTF8DecodeLastRuneInString).
func UTF8DecodeLastRune(p []byte) (rune, int) {
	r, size := utf8.DecodeLastRune(p)
	if on.Load() && Enter(idUTF8DecodeLastRune, 1) {
		if ss, _ := byteArg(0, p); ss != 0 {
			decodeModel(idUTF8DecodeLastRune, ss, string(p), true, r, size)
		}
	}
	return r, size
}

// UTF8Valid is utf8.Valid: ASCII bytes are valid.
func UTF8Valid(p []byte) bool {
	r := utf8.Valid(p)
	if on.Load() && Enter(idUTF8Valid, 1) {
		if ss, _ := byteArg(0, p); ss != 0 {
			asciiString(ss, string(p), "utf8.Valid of bytes that are not ASCII")
		}
	}
	return r
}

// UTF8RuneCount is utf8.RuneCount: ASCII bytes are as many runes.
func UTF8RuneCount(p []byte) int {
	r := utf8.RuneCount(p)
	if on.Load() && Enter(idUTF8RuneCount, 1) {
		if ss, _ := byteArg(0, p); ss != 0 && asciiString(ss, string(p), "utf8.RuneCount of bytes that are not ASCII") {
			Ret(idUTF8RuneCount, Arg{S: StrLen(ss), F: uint64(r)})
		}
	}
	return r
}

// UTF8RuneLen is utf8.RuneLen: 1 for an ASCII rune (an implicit branch),
// -1 for a negative one; other runes are a concretization.
func UTF8RuneLen(r rune) int {
	n := utf8.RuneLen(r)
	if on.Load() && Enter(idUTF8RuneLen, 1) {
		if rs := In(0, uint64(int64(r))); rs != 0 {
			ascii := r >= 0 && r < utf8RuneSelf
			Imp(0, ascii, runeRange(rs, 0, utf8RuneSelf-1))
			if !ascii {
				Conc(0, "utf8.RuneLen of a rune that is not ASCII")
			}
		}
	}
	return n
}
