package rt

import (
	"slices"
	"strings"
)

// Models of the strings searches for any of a set of characters, for a
// symbolic string and a constant set of ASCII characters. They are exact
// whatever bytes the string has: a byte of a multi-byte or invalid UTF-8
// sequence is never ASCII, so the rune the original decodes there can
// never be in the set, and the byte index of the first (last) rune in the
// set is that of the first (last) byte in it.

var (
	idStringsIndexAny     = funcID("strings.IndexAny")
	idStringsLastIndexAny = funcID("strings.LastIndexAny")
	idStringsContainsAny  = funcID("strings.ContainsAny")
)

// byteIn is the shadow of "byte b is one of set", as range tests over the
// set's runs of consecutive bytes.
func byteIn(b S, set []byte) S {
	acc := falseS()
	for i := 0; i < len(set); {
		j := i
		for j+1 < len(set) && set[j+1] == set[j]+1 {
			j++
		}
		var in S
		if i == j {
			in = mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: b, B: constant(KUint8, uint64(set[i]))})
		} else {
			in = mk(Node{Op: OpLAnd, K: KBool,
				A: mk(Node{Op: OpGe, K: KBool, K2: KUint8, A: b, B: constant(KUint8, uint64(set[i]))}),
				B: mk(Node{Op: OpLe, K: KBool, K2: KUint8, A: b, B: constant(KUint8, uint64(set[j]))})})
		}
		acc = mk(Node{Op: OpLOr, K: KBool, A: acc, B: in})
		i = j + 1
	}
	return acc
}

// anyOf is the shadow of the first (or last) byte index of s in the ASCII
// set chars, or -1; 0 when the model does not apply (a concretization is
// recorded for symbolic or non-ASCII sets).
func anyOf(ss S, s string, cs S, chars string, last bool) S {
	switch {
	case ss == 0 && cs == 0:
		return 0
	case cs != 0:
		Conc(0, "strings.IndexAny with a symbolic set")
		return 0
	}
	var set []byte
	for i := 0; i < len(chars); i++ {
		if chars[i] >= utf8RuneSelf {
			Conc(0, "strings.IndexAny with characters that are not ASCII")
			return 0
		}
		set = append(set, chars[i])
	}
	slices.Sort(set)
	set = slices.Compact(set)
	L := StrLen(ss)
	m, approx := searchLen(len(s))
	match := func(i int) S {
		in := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L})
		b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		return mk(Node{Op: OpIte, K: KBool, A: in, B: byteIn(b, set), C: falseS()})
	}
	if !last {
		return firstMatch(0, m, approx, match)
	}
	if approx {
		Conc(0, "search in a value of symbolic length")
	}
	acc := constant(KInt, uint64(^uint64(0))) // -1
	for i := 0; i < m; i++ {
		acc = mk(Node{Op: OpIte, K: KInt, A: match(i), B: intS(i), C: acc})
	}
	return acc
}

// StringsIndexAny is strings.IndexAny.
func StringsIndexAny(s, chars string) int {
	r := strings.IndexAny(s, chars)
	if on.Load() && Enter(idStringsIndexAny, 2) {
		if sh := anyOf(In(0, FS(s)), s, In(1, FS(chars)), chars, false); sh != 0 {
			Ret(idStringsIndexAny, Arg{S: sh, F: uint64(r)})
		}
	}
	return r
}

// StringsLastIndexAny is strings.LastIndexAny.
func StringsLastIndexAny(s, chars string) int {
	r := strings.LastIndexAny(s, chars)
	if on.Load() && Enter(idStringsLastIndexAny, 2) {
		if sh := anyOf(In(0, FS(s)), s, In(1, FS(chars)), chars, true); sh != 0 {
			Ret(idStringsLastIndexAny, Arg{S: sh, F: uint64(r)})
		}
	}
	return r
}

// StringsContainsAny is strings.ContainsAny.
func StringsContainsAny(s, chars string) bool {
	r := strings.ContainsAny(s, chars)
	if on.Load() && Enter(idStringsContainsAny, 2) {
		if sh := anyOf(In(0, FS(s)), s, In(1, FS(chars)), chars, false); sh != 0 {
			Ret(idStringsContainsAny, Arg{S: mk(Node{Op: OpGe, K: KBool, K2: KInt, A: sh, B: intS(0)}), F: B(r)})
		}
	}
	return r
}
