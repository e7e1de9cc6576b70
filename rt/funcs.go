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
func runeAt(ss S, s string, i int, backward bool, p pred) (bool, int) {
	var r rune
	var n int
	if backward {
		r, n = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, n = utf8.DecodeRuneInString(s[i:])
	}
	var rs, b S
	if ss != 0 {
		b = mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		ascii := s[i] < utf8RuneSelf
		Imp(0, ascii, mk(Node{Op: OpLt, K: KBool, K2: KUint8, A: b, B: constant(KUint8, utf8RuneSelf)}))
		if ascii {
			rs = Conv(KInt32, KUint8, b)
		} else {
			b = 0
			if !p.asciiOnly {
				Conc(0, "a rune predicate on text that is not ASCII")
			}
		}
	}
	if p.set != nil {
		ok := p.f(r)
		if b != 0 {
			Imp(0, ok, byteIn(b, p.set))
		}
		return ok, n
	}
	Call(0, Arg{S: rs, F: uint64(int64(r))})
	ok := p.f(r)
	Imp(0, ok, Res(0, 0, B(ok)))
	return ok, n
}

// pred is a rune predicate: f, and, for a predicate of the model's own,
// the ASCII bytes on which it holds (its shadow is then a range test on
// the byte, and f is called without one).
type pred struct {
	f   func(rune) bool
	set []byte
	// asciiOnly: f holds on no rune outside ASCII, so the implicit
	// branch "the byte is not ASCII" says f is false there, exactly
	// (a trim's ASCII cutset).
	asciiOnly bool
}

// asciiPred is f with the set of ASCII bytes on which it holds.
func asciiPred(f func(rune) bool) pred {
	p := pred{f: f, set: []byte{}}
	for b := 0; b < utf8RuneSelf; b++ {
		if f(rune(b)) {
			p.set = append(p.set, byte(b))
		}
	}
	return p
}

// indexFunc is the forward scan: the byte index of the first rune of s on
// which f is want, or -1.
func indexFunc(ss S, s string, f pred, want bool) int {
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
func lastIndexFunc(ss S, s string, f pred, want bool) int {
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
	p := pred{f: modelled(f)}
	return indexFunc(ss, s, p, true)
}

// StringsContainsFunc is strings.ContainsFunc.
func StringsContainsFunc(s string, f func(rune) bool) bool {
	ss, ok := scanModel(idStringsContainsFunc, s)
	if !ok {
		return strings.ContainsFunc(s, f)
	}
	p := pred{f: modelled(f)}
	return indexFunc(ss, s, p, true) >= 0
}

// StringsLastIndexFunc is strings.LastIndexFunc.
func StringsLastIndexFunc(s string, f func(rune) bool) int {
	ss, ok := scanModel(idStringsLastIndexFunc, s)
	if !ok {
		return strings.LastIndexFunc(s, f)
	}
	p := pred{f: modelled(f)}
	return lastIndexFunc(ss, s, p, true)
}

// trimLeft is s without the leading runes on which f is true, with the
// shadow of the rest as a slice of s.
func trimLeft(ss S, s string, f pred) (string, S) {
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
func trimRight(ss S, s string, f pred) (string, S) {
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
	p := pred{f: modelled(f)}
	r, rs := trimLeft(ss, s, p)
	Ret(idStringsTrimLeftFunc, Arg{S: rs, F: FS(r)})
	return r
}

// StringsTrimRightFunc is strings.TrimRightFunc.
func StringsTrimRightFunc(s string, f func(rune) bool) string {
	ss, ok := scanModel(idStringsTrimRightFunc, s)
	if !ok {
		return strings.TrimRightFunc(s, f)
	}
	p := pred{f: modelled(f)}
	r, rs := trimRight(ss, s, p)
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
	p := pred{f: modelled(f)}
	r, rs := trimLeft(ss, s, p)
	r, rs = trimRight(rs, r, p)
	Ret(idStringsTrimFunc, Arg{S: rs, F: FS(r)})
	return r
}

var (
	idStringsTrimSpace = funcID("strings.TrimSpace")
	idStringsTrim      = funcID("strings.Trim")
	idStringsTrimLeft  = funcID("strings.TrimLeft")
	idStringsTrimRight = funcID("strings.TrimRight")
)

// isSpace is unicode.IsSpace with its ASCII bytes: strings.TrimSpace is
// strings.TrimFunc(s, unicode.IsSpace).
var isSpace = asciiPred(unicode.IsSpace)

// StringsTrimSpace is strings.TrimSpace.
func StringsTrimSpace(s string) string {
	if !on.Load() || !Enter(idStringsTrimSpace, 1) {
		return strings.TrimSpace(s)
	}
	ss := In(0, FS(s))
	if ss == 0 {
		return strings.TrimSpace(s)
	}
	r, rs := trimLeft(ss, s, isSpace)
	r, rs = trimRight(rs, r, isSpace)
	Ret(idStringsTrimSpace, Arg{S: rs, F: FS(r)})
	return r
}

// cutsetPred is the predicate "r is in cutset" for a constant ASCII
// cutset; ok is false otherwise.
func cutsetPred(cs S, cutset string) (pred, bool) {
	if cs != 0 {
		Conc(0, "strings.Trim with a symbolic cutset")
		return pred{}, false
	}
	for i := 0; i < len(cutset); i++ {
		if cutset[i] >= utf8RuneSelf {
			Conc(0, "strings.Trim with a cutset that is not ASCII")
			return pred{}, false
		}
	}
	p := asciiPred(func(r rune) bool { return r < utf8RuneSelf && strings.IndexByte(cutset, byte(r)) >= 0 })
	p.asciiOnly = true
	return p, true
}

// trimCutset is the shared body of the Trim models (left, right or both).
func trimCutset(id uint32, s, cutset string, left, right bool, original func(string, string) string) string {
	if !on.Load() || !Enter(id, 2) {
		return original(s, cutset)
	}
	ss, cs := In(0, FS(s)), In(1, FS(cutset))
	if ss == 0 && cs == 0 {
		return original(s, cutset)
	}
	p, ok := cutsetPred(cs, cutset)
	if !ok || ss == 0 {
		return original(s, cutset)
	}
	r, rs := s, ss
	if left {
		r, rs = trimLeft(rs, r, p)
	}
	if right {
		r, rs = trimRight(rs, r, p)
	}
	Ret(id, Arg{S: rs, F: FS(r)})
	return r
}

// StringsTrim is strings.Trim.
func StringsTrim(s, cutset string) string {
	return trimCutset(idStringsTrim, s, cutset, true, true, strings.Trim)
}

// StringsTrimLeft is strings.TrimLeft.
func StringsTrimLeft(s, cutset string) string {
	return trimCutset(idStringsTrimLeft, s, cutset, true, false, strings.TrimLeft)
}

// StringsTrimRight is strings.TrimRight.
func StringsTrimRight(s, cutset string) string {
	return trimCutset(idStringsTrimRight, s, cutset, false, true, strings.TrimRight)
}

var (
	idStringsReplace    = funcID("strings.Replace")
	idStringsReplaceAll = funcID("strings.ReplaceAll")
)

// StringsReplace is strings.Replace (see replaceModel).
func StringsReplace(s, old, new string, n int) string {
	r := strings.Replace(s, old, new, n)
	if on.Load() && Enter(idStringsReplace, 4) {
		ss, olds, news, cs := In(0, FS(s)), In(1, FS(old)), In(2, FS(new)), In(3, uint64(n))
		replaceModel(idStringsReplace, ss, s, olds, old, news, new, cs, n, r)
	}
	return r
}

// StringsReplaceAll is strings.ReplaceAll (see replaceModel).
func StringsReplaceAll(s, old, new string) string {
	r := strings.ReplaceAll(s, old, new)
	if on.Load() && Enter(idStringsReplaceAll, 3) {
		ss, olds, news := In(0, FS(s)), In(1, FS(old)), In(2, FS(new))
		replaceModel(idStringsReplaceAll, ss, s, olds, old, news, new, 0, -1, r)
	}
	return r
}

// replaceModel gives the result r of replacing the first n (n < 0: all)
// occurrences of a one-byte constant old in a symbolic s by a constant
// new its shadow: the string's length is chosen (like an index), "byte i
// is old" is an implicit branch for every byte the replacement looks at,
// and the result is the list of the kept bytes' shadows and new's bytes
// in their places — exact for the path. Other cases record a
// concretization.
func replaceModel(id uint32, ss S, s string, olds S, old string, news S, new string, cs S, n int, r string) {
	switch {
	case ss == 0 && olds == 0 && news == 0 && cs == 0:
		return
	case olds != 0 || news != 0 || cs != 0:
		Conc(0, "strings.Replace with a symbolic argument other than the string")
		return
	case len(old) != 1:
		Conc(0, "strings.Replace of a string that is not one byte")
		return
	}
	choose(0, KInt, StrLen(ss), uint64(len(s)))
	c := constant(KUint8, uint64(old[0]))
	var out []S
	done := 0
	for i := 0; i < len(s); i++ {
		b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		if n >= 0 && done == n {
			out = append(out, b)
			continue
		}
		hit := s[i] == old[0]
		Imp(0, hit, mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: b, B: c}))
		if !hit {
			out = append(out, b)
			continue
		}
		done++
		for k := 0; k < len(new); k++ {
			out = append(out, constant(KUint8, uint64(new[k])))
		}
	}
	if len(out) != len(r) {
		return // cannot happen: the model is the original
	}
	Ret(id, Arg{S: mk(Node{Op: OpFromList, K: KString, List: out}), F: FS(r)})
}
