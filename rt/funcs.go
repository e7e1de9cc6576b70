package rt

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Models of the strings functions that take a rune predicate. The model
// scans the string itself, calling the predicate (instrumented code, such
// as a closure of the package, sees the rune's shadow) and recording an
// implicit branch on each of its results and on each step of the scan, so
// the path says exactly which rune stopped it: the results need no
// shadows. An ASCII byte is its rune; a byte that is not ASCII records a
// concretization (UTF-8 decoding is not modelled) and its rune is passed
// without a shadow. Forward scans record "position i is within s" as
// they go; backward scans choose the string's length first (like an
// index: one run per length).

var (
	idStringsIndexFunc     = funcID("strings.IndexFunc")
	idStringsLastIndexFunc = funcID("strings.LastIndexFunc")
	idStringsContainsFunc  = funcID("strings.ContainsFunc")
	idStringsTrimLeftFunc  = funcID("strings.TrimLeftFunc")
	idStringsTrimRightFunc = funcID("strings.TrimRightFunc")
	idStringsTrimFunc      = funcID("strings.TrimFunc")
)

// runeAt calls f on the rune of s at byte i (a forward scan) or ending at
// byte i (backward), passing its shadow, and records the implicit branch
// on f's result. It returns f's result and the rune's width.
func runeAt(ss S, s string, i int, backward bool, f func(rune) bool) (bool, int) {
	var r rune
	var n int
	if backward {
		r, n = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, n = utf8.DecodeRuneInString(s[i:])
	}
	var rs S
	if ss != 0 {
		b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		ascii := s[i] < utf8RuneSelf
		Imp(0, ascii, mk(Node{Op: OpLt, K: KBool, K2: KUint8, A: b, B: constant(KUint8, utf8RuneSelf)}))
		if ascii {
			rs = Conv(KInt32, KUint8, b)
		} else {
			Conc(0, "a rune predicate on text that is not ASCII")
		}
	}
	Call(0, Arg{S: rs, F: uint64(int64(r))})
	ok := f(r)
	Imp(0, ok, Res(0, 0, B(ok)))
	return ok, n
}

// indexFunc is the forward scan: the byte index of the first rune of s on
// which f is want, or -1.
func indexFunc(ss S, s string, f func(rune) bool, want bool) int {
	L := StrLen(ss)
	for i := 0; ; {
		more := i < len(s)
		if ss != 0 {
			Imp(0, more, mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L}))
		}
		if !more {
			return -1
		}
		ok, n := runeAt(ss, s, i, false, f)
		if ok == want {
			return i
		}
		i += n
	}
}

// lastIndexFunc is the backward scan: the byte index of the last rune of s
// on which f is want, or -1.
func lastIndexFunc(ss S, s string, f func(rune) bool, want bool) int {
	if ss != 0 {
		choose(0, KInt, StrLen(ss), uint64(len(s)))
	}
	for i := len(s) - 1; i >= 0; {
		ok, n := runeAt(ss, s, i, true, f)
		if ok == want {
			return i + 1 - n
		}
		i -= n
	}
	return -1
}

// scanModel is the prologue of the models: the string's shadow, or ok
// false when the call was not announced (the original is called then).
func scanModel(id uint32, s string) (S, bool) {
	if !on.Load() || !Enter(id, 2) {
		return 0, false
	}
	return In(0, FS(s)), true
}

// predicates maps the unicode class functions, passed as predicates, to
// their models, which take the rune's shadow.
var predicates = map[uintptr]func(rune) bool{
	funcPC(unicode.IsDigit):  UnicodeIsDigit,
	funcPC(unicode.IsLetter): UnicodeIsLetter,
	funcPC(unicode.IsSpace):  UnicodeIsSpace,
	funcPC(unicode.IsUpper):  UnicodeIsUpper,
	funcPC(unicode.IsLower):  UnicodeIsLower,
}

// funcPC is the code address of a function value.
func funcPC(f func(rune) bool) uintptr { return reflect.ValueOf(f).Pointer() }

// modelled returns f's model if f is a unicode class function, else f.
func modelled(f func(rune) bool) func(rune) bool {
	if f == nil {
		return f
	}
	if m, ok := predicates[funcPC(f)]; ok {
		return m
	}
	return f
}

// StringsIndexFunc is strings.IndexFunc.
func StringsIndexFunc(s string, f func(rune) bool) int {
	ss, ok := scanModel(idStringsIndexFunc, s)
	if !ok {
		return strings.IndexFunc(s, f)
	}
	f = modelled(f)
	return indexFunc(ss, s, f, true)
}

// StringsContainsFunc is strings.ContainsFunc.
func StringsContainsFunc(s string, f func(rune) bool) bool {
	ss, ok := scanModel(idStringsContainsFunc, s)
	if !ok {
		return strings.ContainsFunc(s, f)
	}
	f = modelled(f)
	return indexFunc(ss, s, f, true) >= 0
}

// StringsLastIndexFunc is strings.LastIndexFunc.
func StringsLastIndexFunc(s string, f func(rune) bool) int {
	ss, ok := scanModel(idStringsLastIndexFunc, s)
	if !ok {
		return strings.LastIndexFunc(s, f)
	}
	f = modelled(f)
	return lastIndexFunc(ss, s, f, true)
}

// trimLeft is s without the leading runes on which f is true, with the
// shadow of the rest as a slice of s.
func trimLeft(ss S, s string, f func(rune) bool) (string, S) {
	i := indexFunc(ss, s, f, false)
	if i < 0 {
		i = len(s)
	}
	if ss == 0 {
		return s[i:], 0
	}
	// The path pins i, but not the end: the rest is s[i:len(s)].
	return s[i:], mk(Node{Op: OpSlice, K: KString, A: ss, B: intS(i), C: StrLen(ss)})
}

// trimRight is s without the trailing runes on which f is true.
func trimRight(ss S, s string, f func(rune) bool) (string, S) {
	i := lastIndexFunc(ss, s, f, false)
	end := 0
	if i >= 0 {
		_, n := utf8.DecodeRuneInString(s[i:])
		end = i + n
	}
	if ss == 0 {
		return s[:end], 0
	}
	return s[:end], mk(Node{Op: OpSlice, K: KString, A: ss, B: intS(0), C: intS(end)})
}

// StringsTrimLeftFunc is strings.TrimLeftFunc.
func StringsTrimLeftFunc(s string, f func(rune) bool) string {
	ss, ok := scanModel(idStringsTrimLeftFunc, s)
	if !ok {
		return strings.TrimLeftFunc(s, f)
	}
	f = modelled(f)
	r, rs := trimLeft(ss, s, f)
	Ret(idStringsTrimLeftFunc, Arg{S: rs, F: FS(r)})
	return r
}

// StringsTrimRightFunc is strings.TrimRightFunc.
func StringsTrimRightFunc(s string, f func(rune) bool) string {
	ss, ok := scanModel(idStringsTrimRightFunc, s)
	if !ok {
		return strings.TrimRightFunc(s, f)
	}
	f = modelled(f)
	r, rs := trimRight(ss, s, f)
	Ret(idStringsTrimRightFunc, Arg{S: rs, F: FS(r)})
	return r
}

// StringsTrimFunc is strings.TrimFunc: the leading runes are trimmed
// first, then the trailing ones, as the original does.
func StringsTrimFunc(s string, f func(rune) bool) string {
	ss, ok := scanModel(idStringsTrimFunc, s)
	if !ok {
		return strings.TrimFunc(s, f)
	}
	f = modelled(f)
	r, rs := trimLeft(ss, s, f)
	r, rs = trimRight(rs, r, f)
	Ret(idStringsTrimFunc, Arg{S: rs, F: FS(r)})
	return r
}
