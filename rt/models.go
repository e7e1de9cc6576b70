package rt

import (
	"bytes"
	"hash/fnv"
	"slices"
	"strings"
	"unsafe"
)

// Models of standard-library functions. The instrumenter calls these
// instead of the originals, as if they were instrumented functions: they
// return exactly what the originals return, and leave a shadow of the
// result built from the arguments' shadows, so that branches on them stay
// symbolic. Models returns, by the full name of the function, the name of
// its model in this package.
func Models() map[string]string {
	return map[string]string{
		"strings.HasPrefix": "StringsHasPrefix",
		"strings.HasSuffix": "StringsHasSuffix",
		"bytes.HasPrefix":   "BytesHasPrefix",
		"bytes.HasSuffix":   "BytesHasSuffix",
		"bytes.Equal":       "BytesEqual",
		"strings.IndexByte": "StringsIndexByte",
		"strings.Index":     "StringsIndex",
		"strings.Contains":  "StringsContains",
		"bytes.IndexByte":   "BytesIndexByte",
		"strings.Count":     "StringsCount",
		"bytes.Count":       "BytesCount",
		// More searches parsers use.
		"strings.LastIndexByte":               "StringsLastIndexByte",
		"strings.IndexRune":                   "StringsIndexRune",
		"strings.ContainsRune":                "StringsContainsRune",
		"strings.EqualFold":                   "StringsEqualFold",
		"strconv.Atoi":                        "StrconvAtoi",
		"strconv.ParseInt":                    "StrconvParseInt",
		"strconv.ParseUint":                   "StrconvParseUint",
		"strconv.ParseBool":                   "StrconvParseBool",
		"strconv.Itoa":                        "StrconvItoa",
		"strconv.FormatInt":                   "StrconvFormatInt",
		"strconv.FormatUint":                  "StrconvFormatUint",
		"strings.Cut":                         "StringsCut",
		"strings.Split":                       "StringsSplit",
		"strings.SplitN":                      "StringsSplitN",
		"strings.Fields":                      "StringsFields",
		"strings.IndexFunc":                   "StringsIndexFunc",
		"strings.TrimSpace":                   "StringsTrimSpace",
		"strings.Trim":                        "StringsTrim",
		"strings.TrimLeft":                    "StringsTrimLeft",
		"strings.TrimRight":                   "StringsTrimRight",
		"strings.Replace":                     "StringsReplace",
		"strings.ReplaceAll":                  "StringsReplaceAll",
		"(*regexp.Regexp).MatchString":        "RegexpMatchString",
		"(*regexp.Regexp).FindString":         "RegexpFindString",
		"(*regexp.Regexp).FindStringSubmatch": "RegexpFindStringSubmatch",
		"regexp.MatchString":                  "RegexpMatchStringPackage",
		"strings.IndexAny":                    "StringsIndexAny",
		"strings.LastIndexAny":                "StringsLastIndexAny",
		"strings.ContainsAny":                 "StringsContainsAny",
		"strings.LastIndexFunc":               "StringsLastIndexFunc",
		"strings.ContainsFunc":                "StringsContainsFunc",
		"strings.TrimLeftFunc":                "StringsTrimLeftFunc",
		"strings.TrimRightFunc":               "StringsTrimRightFunc",
		"strings.TrimFunc":                    "StringsTrimFunc",
		"unicode/utf8.ValidString":            "UTF8ValidString",
		"unicode/utf8.RuneCountInString":      "UTF8RuneCountInString",
		"unicode/utf8.DecodeRuneInString":     "UTF8DecodeRuneInString",
		"unicode/utf8.RuneLen":                "UTF8RuneLen",
		"unicode/utf8.DecodeLastRuneInString": "UTF8DecodeLastRuneInString",
		"unicode/utf8.DecodeRune":             "UTF8DecodeRune",
		"unicode/utf8.DecodeLastRune":         "UTF8DecodeLastRune",
		"unicode/utf8.Valid":                  "UTF8Valid",
		"unicode/utf8.RuneCount":              "UTF8RuneCount",
		"unicode.IsDigit":                     "UnicodeIsDigit",
		"unicode.IsLetter":                    "UnicodeIsLetter",
		"unicode.IsSpace":                     "UnicodeIsSpace",
		"unicode.IsUpper":                     "UnicodeIsUpper",
		"unicode.IsLower":                     "UnicodeIsLower",
		"strings.ToLower":                     "StringsToLower",
		"strings.ToUpper":                     "StringsToUpper",
		"strings.TrimPrefix":                  "StringsTrimPrefix",
		"strings.TrimSuffix":                  "StringsTrimSuffix",
		"strings.CutPrefix":                   "StringsCutPrefix",
		"strings.CutSuffix":                   "StringsCutSuffix",
		"slices.Contains":                     "SlicesContains",
		"slices.Index":                        "SlicesIndex",
		"slices.Equal":                        "SlicesEqual",
		"slices.Clone":                        "SlicesClone",
		"slices.Delete":                       "SlicesDelete",
		"io.ReadAll":                          "IoReadAll",
		"bytes.Index":                         "BytesIndex",
		"bytes.Contains":                      "BytesContains",
		"bytes.IndexAny":                      "BytesIndexAny",
		"bytes.ContainsAny":                   "BytesContainsAny",
		"bytes.EqualFold":                     "BytesEqualFold",
		"bytes.TrimSpace":                     "BytesTrimSpace",
		"bytes.Trim":                          "BytesTrim",
		"bytes.TrimLeft":                      "BytesTrimLeft",
		"bytes.TrimRight":                     "BytesTrimRight",
		"bytes.TrimPrefix":                    "BytesTrimPrefix",
		"bytes.TrimSuffix":                    "BytesTrimSuffix",
		"bytes.Cut":                           "BytesCut",
		"bytes.Fields":                        "BytesFields",
		"bytes.Split":                         "BytesSplit",
		"bytes.SplitN":                        "BytesSplitN",
		"bytes.ToLower":                       "BytesToLower",
		"bytes.ToUpper":                       "BytesToUpper",
		"strings.Repeat":                      "StringsRepeat",
		"(*strings.Builder).WriteString":      "StringsBuilderWriteString",
		"(*strings.Builder).WriteByte":        "StringsBuilderWriteByte",
		"(*strings.Builder).WriteRune":        "StringsBuilderWriteRune",
		"(*strings.Builder).String":           "StringsBuilderString",
		"(*strings.Builder).Len":              "StringsBuilderLen",
		"(*strings.Builder).Reset":            "StringsBuilderReset",
		"(*strings.Builder).Grow":             "StringsBuilderGrow",
	}
}

// funcID is the instrumenter's FuncID of a function with this full name.
func funcID(fullName string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(fullName))
	if id := h.Sum32(); id != 0 {
		return id
	}
	return 1
}

var (
	idStringsHasPrefix = funcID("strings.HasPrefix")
	idStringsHasSuffix = funcID("strings.HasSuffix")
	idBytesHasPrefix   = funcID("bytes.HasPrefix")
	idBytesHasSuffix   = funcID("bytes.HasSuffix")
	idBytesEqual       = funcID("bytes.Equal")
	idStringsIndexByte = funcID("strings.IndexByte")
	idStringsIndex     = funcID("strings.Index")
	idStringsContains  = funcID("strings.Contains")
	idBytesIndexByte   = funcID("bytes.IndexByte")
	idStringsCount     = funcID("strings.Count")
	idBytesCount       = funcID("bytes.Count")

	idStringsLastIndexByte = funcID("strings.LastIndexByte")
	idStringsIndexRune     = funcID("strings.IndexRune")
	idStringsContainsRune  = funcID("strings.ContainsRune")
	idStringsEqualFold     = funcID("strings.EqualFold")
)

func falseS() S { return constant(KBool, 0) }

func intS(n int) S { return constant(KInt, uint64(n)) }

func orStr(s S, v string) S {
	if s == 0 {
		return strConst(v)
	}
	return s
}

// affix is the shadow of strings.HasPrefix (suffix false) or HasSuffix
// (suffix true) of string shadows s and p.
func affix(s S, sv string, p S, pv string, suffix bool) S {
	s, p = orStr(s, sv), orStr(p, pv)
	ls, lp := StrLen(s), StrLen(p)
	lo, hi := intS(0), lp
	if suffix {
		lo = mk(Node{Op: OpSub, K: KInt, A: ls, B: lp})
		hi = ls
	}
	part := mk(Node{Op: OpSlice, K: KString, A: s, B: lo, C: hi})
	eq := mk(Node{Op: OpEq, K: KBool, K2: KString, A: part, B: p})
	fits := mk(Node{Op: OpLe, K: KBool, K2: KInt, A: lp, B: ls})
	return mk(Node{Op: OpIte, K: KBool, A: fits, B: eq, C: falseS()})
}

func stringsAffix(id uint32, s, p string, r, suffix bool) bool {
	if on.Load() && Enter(id, 2) {
		ss, ps := In(0, FS(s)), In(1, FS(p))
		if ss != 0 || ps != 0 {
			Ret(id, Arg{S: affix(ss, s, ps, p, suffix), F: B(r)})
		}
	}
	return r
}

// StringsHasPrefix is strings.HasPrefix.
func StringsHasPrefix(s, prefix string) bool {
	return stringsAffix(idStringsHasPrefix, s, prefix, strings.HasPrefix(s, prefix), false)
}

// StringsHasSuffix is strings.HasSuffix.
func StringsHasSuffix(s, suffix string) bool {
	return stringsAffix(idStringsHasSuffix, s, suffix, strings.HasSuffix(s, suffix), true)
}

// byteShadows returns the shadows (or constants) of the bytes of b and
// whether any is symbolic.
func byteShadows(b []byte) ([]S, bool) {
	list := make([]S, len(b))
	sym := false
	for i := range b {
		s := Ld(uintptr(unsafe.Pointer(&b[i])), uint64(b[i]))
		if s != 0 {
			sym = true
		} else {
			s = constant(KUint8, uint64(b[i]))
		}
		list[i] = s
	}
	return list, sym
}

func and(a, b S) S {
	if a == 0 {
		return b
	}
	return mk(Node{Op: OpLAnd, K: KBool, A: a, B: b})
}

// bytesModel leaves the shadow of a comparison of byte slices a and b:
// their lengths (shadows an and bn) must relate as lenOK says, and the
// bytes present now must agree where they overlap (aligned at the start,
// or at the end for suffix). With symbolic lengths the bytes beyond those
// present are not in the condition yet: a run that makes the slices longer
// brings them in, so the model sharpens from run to run.
func bytesModel(id uint32, a, b []byte, r bool, lenOp Op, suffix bool) bool {
	if !on.Load() || !Enter(id, 2) {
		return r
	}
	an, bn := In(0, uint64(len(a))), In(1, uint64(len(b)))
	ae, asym := byteShadows(a)
	be, bsym := byteShadows(b)
	if an == 0 && bn == 0 && !asym && !bsym {
		return r
	}
	if suffix && (an != 0 || bn != 0) {
		// Where the suffix lies depends on a symbolic length: the
		// condition below aligns the bytes present now, which is not
		// exact, so the run says so.
		Conc(0, "bytes suffix of a slice with a symbolic length")
	}
	if an == 0 {
		an = intS(len(a))
	}
	if bn == 0 {
		bn = intS(len(b))
	}
	cond := mk(Node{Op: lenOp, K: KBool, K2: KInt, A: bn, B: an}) // len(b) <= len(a), or ==
	k := min(len(a), len(b))
	for i := 0; i < k; i++ {
		x, y := ae[i], be[i]
		if suffix {
			x, y = ae[len(a)-k+i], be[len(b)-k+i]
		}
		cond = and(cond, mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: x, B: y}))
	}
	Ret(id, Arg{S: cond, F: B(r)})
	return r
}

// BytesHasPrefix is bytes.HasPrefix.
func BytesHasPrefix(s, prefix []byte) bool {
	return bytesModel(idBytesHasPrefix, s, prefix, bytes.HasPrefix(s, prefix), OpLe, false)
}

// BytesHasSuffix is bytes.HasSuffix.
func BytesHasSuffix(s, suffix []byte) bool {
	return bytesModel(idBytesHasSuffix, s, suffix, bytes.HasSuffix(s, suffix), OpLe, true)
}

// BytesEqual is bytes.Equal.
func BytesEqual(a, b []byte) bool {
	return bytesModel(idBytesEqual, a, b, bytes.Equal(a, b), OpEq, false)
}

// firstMatch is the shadow of the index of the first position i < n at
// which match(i) holds (a bool shadow), or -1: if-then-else from the last
// position back. Matches at positions the current value does not have
// (when its length is symbolic and may grow) are not in it, so a symbolic
// length makes the run record a concretization.
func firstMatch(site uint32, n int, symLen bool, match func(i int) S) S {
	if symLen {
		Conc(site, "search in a value of symbolic length")
	}
	acc := constant(KInt, uint64(^uint64(0))) // -1
	for i := n - 1; i >= 0; i-- {
		acc = mk(Node{Op: OpIte, K: KInt, A: match(i), B: intS(i), C: acc})
	}
	return acc
}

// searchLen is how many positions a search in a symbolic string of current
// length n covers: up to the input length bound, so that the positions of
// any string an input can make are in the condition (each guarded by the
// symbolic length); only a longer string makes the condition approximate.
func searchLen(n int) (int, bool) {
	bound := 0
	if w := theWorker; w != nil {
		bound = w.maxLen
	}
	if n > bound {
		return n, true
	}
	return bound, false
}

// stringIndex is the shadow of strings.Index(s, sub) for a symbolic s and
// the concrete sub.
func stringIndex(s S, sv, sub string) S {
	L := StrLen(s)
	m := len(sub)
	n, approx := searchLen(len(sv))
	return firstMatch(0, max(n-m+1, 0), approx, func(i int) S {
		fits := mk(Node{Op: OpLe, K: KBool, K2: KInt, A: intS(i + m), B: L})
		part := mk(Node{Op: OpSlice, K: KString, A: s, B: intS(i), C: intS(i + m)})
		eq := mk(Node{Op: OpEq, K: KBool, K2: KString, A: part, B: strConst(sub)})
		return mk(Node{Op: OpIte, K: KBool, A: fits, B: eq, C: falseS()})
	})
}

// StringsIndex is strings.Index.
func StringsIndex(s, substr string) int {
	r := strings.Index(s, substr)
	if on.Load() && Enter(idStringsIndex, 2) {
		if ss, ps := In(0, FS(s)), In(1, FS(substr)); ss != 0 && ps == 0 {
			Ret(idStringsIndex, Arg{S: stringIndex(ss, s, substr), F: uint64(r)})
		} else if ps != 0 {
			Conc(0, "strings.Index of a symbolic substring")
		}
	}
	return r
}

// StringsContains is strings.Contains.
func StringsContains(s, substr string) bool {
	r := strings.Contains(s, substr)
	if on.Load() && Enter(idStringsContains, 2) {
		if ss, ps := In(0, FS(s)), In(1, FS(substr)); ss != 0 && ps == 0 {
			idx := stringIndex(ss, s, substr)
			Ret(idStringsContains, Arg{S: mk(Node{Op: OpGe, K: KBool, K2: KInt, A: idx, B: intS(0)}), F: B(r)})
		} else if ps != 0 {
			Conc(0, "strings.Contains of a symbolic substring")
		}
	}
	return r
}

// StringsIndexByte is strings.IndexByte.
func StringsIndexByte(s string, c byte) int {
	r := strings.IndexByte(s, c)
	if on.Load() && Enter(idStringsIndexByte, 2) {
		ss, cs := In(0, FS(s)), In(1, uint64(c))
		if ss != 0 || cs != 0 {
			ss = orStr(ss, s)
			if cs == 0 {
				cs = constant(KUint8, uint64(c))
			}
			L := StrLen(ss)
			n, approx := searchLen(len(s))
			Ret(idStringsIndexByte, Arg{S: firstMatch(0, n, approx, func(i int) S {
				in := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L})
				at := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
				eq := mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: at, B: cs})
				return mk(Node{Op: OpIte, K: KBool, A: in, B: eq, C: falseS()})
			}), F: uint64(r)})
		}
	}
	return r
}

// lastMatch is the shadow of the index of the last position i < n at
// which match(i) holds, or -1: if-then-else from the first position on, so
// that later matches win. Like firstMatch, a symbolic length that may grow
// beyond n makes it approximate, which the run records.
func lastMatch(site uint32, n int, symLen bool, match func(i int) S) S {
	if symLen {
		Conc(site, "search in a value of symbolic length")
	}
	acc := constant(KInt, uint64(^uint64(0))) // -1
	for i := 0; i < n; i++ {
		acc = mk(Node{Op: OpIte, K: KInt, A: match(i), B: intS(i), C: acc})
	}
	return acc
}

// byteSearch is the shadow of the position of c in the string s (shadow
// ss, or the constant s) found by search, when s or c is symbolic (c's
// shadow cs), or 0 when both are concrete.
func byteSearch(ss S, s string, cs S, c byte, search func(site uint32, n int, symLen bool, match func(i int) S) S) S {
	if ss == 0 && cs == 0 {
		return 0
	}
	ss = orStr(ss, s)
	if cs == 0 {
		cs = constant(KUint8, uint64(c))
	}
	L := StrLen(ss)
	n, approx := searchLen(len(s))
	return search(0, n, approx, func(i int) S {
		in := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L})
		at := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		eq := mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: at, B: cs})
		return mk(Node{Op: OpIte, K: KBool, A: in, B: eq, C: falseS()})
	})
}

// StringsLastIndexByte is strings.LastIndexByte.
func StringsLastIndexByte(s string, c byte) int {
	r := strings.LastIndexByte(s, c)
	if on.Load() && Enter(idStringsLastIndexByte, 2) {
		if sh := byteSearch(In(0, FS(s)), s, In(1, uint64(c)), c, lastMatch); sh != 0 {
			Ret(idStringsLastIndexByte, Arg{S: sh, F: uint64(r)})
		}
	}
	return r
}

// runeSearch is the shadow of strings.IndexRune(s, r) for an ASCII rune
// (a byte search), or 0 with a concretization recorded for a symbolic
// rune or a rune outside ASCII, whose UTF-8 form dowse does not model here.
func runeSearch(ss S, s string, rs S, r rune, why string) S {
	if rs != 0 && ss == 0 {
		if sh := runeIndexIn(rs, s); sh != 0 {
			return sh
		}
	}
	if rs != 0 || r < 0 || r >= 0x80 {
		if ss != 0 || rs != 0 {
			Conc(0, why)
		}
		return 0
	}
	return byteSearch(ss, s, 0, byte(r), firstMatch)
}

// maxRuneSet bounds the distinct runes of a constant string that
// runeIn and runeIndexIn compare a symbolic rune with.
const maxRuneSet = 256

// firstRunes are the distinct runes of s, as a range over s decodes
// them, with the byte offset of each one's first occurrence, in that
// order; nil if there are more than maxRuneSet.
func firstRunes(s string) (runes []rune, at []int) {
	seen := map[rune]bool{}
	for i, c := range s {
		if seen[c] {
			continue
		}
		if len(runes) == maxRuneSet {
			return nil, nil
		}
		seen[c] = true
		runes, at = append(runes, c), append(at, i)
	}
	return runes, at
}

// runeIndexIn is the shadow of strings.IndexRune(s, r) for a symbolic
// rune r (shadow rs) and a constant s: the offset of r's first occurrence
// among the runes s decodes to, or -1. That is IndexRune's answer for
// every r: UTF-8 resynchronizes, so an encoding of a valid rune in s is
// one of the runes a range over s decodes; RuneError is among them just
// when s holds an invalid sequence or U+FFFD (which IndexRune looks for);
// and no other rune (a surrogate, a negative one) is ever decoded. 0 if
// s has more than maxRuneSet distinct runes.
func runeIndexIn(rs S, s string) S {
	runes, at := firstRunes(s)
	if runes == nil && s != "" {
		return 0
	}
	acc := intS(-1)
	for k := len(runes) - 1; k >= 0; k-- {
		eq := mk(Node{Op: OpEq, K: KBool, K2: KInt32, A: rs, B: constant(KInt32, uint64(int64(runes[k])))})
		acc = mk(Node{Op: OpIte, K: KInt, A: eq, B: intS(at[k]), C: acc})
	}
	return acc
}

// runeIn is the shadow of strings.ContainsRune(s, r) for a symbolic rune
// r (shadow rs) and a constant s (runeIndexIn says why it is exact): r is
// in one of the runs of consecutive runes s decodes to. 0 if s has more
// than maxRuneSet distinct runes.
func runeIn(rs S, s string) S {
	runes, _ := firstRunes(s)
	if runes == nil && s != "" {
		return 0
	}
	slices.Sort(runes)
	in := falseS()
	for i := 0; i < len(runes); {
		j := i
		for j+1 < len(runes) && runes[j+1] == runes[j]+1 {
			j++
		}
		in = mk(Node{Op: OpLOr, K: KBool, A: in, B: runeRange(rs, runes[i], runes[j])})
		i = j + 1
	}
	return in
}

// StringsIndexRune is strings.IndexRune.
func StringsIndexRune(s string, r rune) int {
	res := strings.IndexRune(s, r)
	if on.Load() && Enter(idStringsIndexRune, 2) {
		if sh := runeSearch(In(0, FS(s)), s, In(1, uint64(int64(r))), r, "strings.IndexRune of a symbolic or non-ASCII rune"); sh != 0 {
			Ret(idStringsIndexRune, Arg{S: sh, F: uint64(int64(res))})
		}
	}
	return res
}

// StringsContainsRune is strings.ContainsRune.
func StringsContainsRune(s string, r rune) bool {
	res := strings.ContainsRune(s, r)
	if on.Load() && Enter(idStringsContainsRune, 2) {
		ss, rs := In(0, FS(s)), In(1, uint64(int64(r)))
		if rs != 0 && ss == 0 {
			// A rune tested against a set (containsOnly's closures).
			if sh := runeIn(rs, s); sh != 0 {
				Ret(idStringsContainsRune, Arg{S: sh, F: B(res)})
				return res
			}
		}
		if sh := runeSearch(ss, s, rs, r, "strings.ContainsRune of a symbolic or non-ASCII rune"); sh != 0 {
			Ret(idStringsContainsRune, Arg{S: mk(Node{Op: OpGe, K: KBool, K2: KInt, A: sh, B: intS(0)}), F: B(res)})
		}
	}
	return res
}

// StringsEqualFold is strings.EqualFold. Its shadow is ASCII case folding:
// equal lengths and, at every position, equal bytes or the same letter in
// the other case. Unicode folds more (the Kelvin sign K matches "k"), so
// a symbolic argument also records a concretization: the model steers the
// search to ASCII solutions, but no verdict rests on it.
func StringsEqualFold(s, t string) bool {
	res := strings.EqualFold(s, t)
	if on.Load() && Enter(idStringsEqualFold, 2) {
		ss, ts := In(0, FS(s)), In(1, FS(t))
		if ss != 0 || ts != 0 {
			Conc(0, "strings.EqualFold: Unicode folding beyond ASCII is not modelled")
			Ret(idStringsEqualFold, Arg{S: asciiEqualFold(orStr(ss, s), s, orStr(ts, t), t), F: B(res)})
		}
	}
	return res
}

// asciiEqualFold is the shadow of ASCII case-insensitive equality of the
// strings a and b (current values av and bv): their lengths are equal and
// every position up to the input length bound is equal after folding.
func asciiEqualFold(a S, av string, b S, bv string) S {
	La, Lb := StrLen(a), StrLen(b)
	acc := mk(Node{Op: OpEq, K: KBool, K2: KInt, A: La, B: Lb})
	n, approx := searchLen(max(len(av), len(bv)))
	if approx {
		Conc(0, "strings.EqualFold of a value of symbolic length")
	}
	for i := 0; i < n; i++ {
		in := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: La})
		x := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: a, B: intS(i)})
		y := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: b, B: intS(i)})
		same := mk(Node{Op: OpIte, K: KBool, A: in, B: foldEq(x, y), C: constant(KBool, 1)})
		acc = mk(Node{Op: OpIte, K: KBool, A: acc, B: same, C: falseS()})
	}
	return acc
}

// foldEq is the shadow of "bytes x and y are equal, or the same ASCII
// letter in two cases": x == y || (x|0x20 == y|0x20 && 'a' <= x|0x20 <= 'z').
func foldEq(x, y S) S {
	lower := func(v S) S { return mk(Node{Op: OpOr, K: KUint8, A: v, B: constant(KUint8, 0x20)}) }
	lx := lower(x)
	eq := mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: x, B: y})
	leq := mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: lx, B: lower(y)})
	ge := mk(Node{Op: OpGe, K: KBool, K2: KUint8, A: lx, B: constant(KUint8, 'a')})
	le := mk(Node{Op: OpLe, K: KBool, K2: KUint8, A: lx, B: constant(KUint8, 'z')})
	letter := mk(Node{Op: OpIte, K: KBool, A: ge, B: le, C: falseS()})
	fold := mk(Node{Op: OpIte, K: KBool, A: leq, B: letter, C: falseS()})
	return mk(Node{Op: OpIte, K: KBool, A: eq, B: constant(KBool, 1), C: fold})
}

// BytesIndexByte is bytes.IndexByte.
func BytesIndexByte(b []byte, c byte) int {
	r := bytes.IndexByte(b, c)
	if on.Load() && Enter(idBytesIndexByte, 2) {
		bn, cs := In(0, uint64(len(b))), In(1, uint64(c))
		elems, sym := byteShadows(b)
		if sym || bn != 0 || cs != 0 {
			if cs == 0 {
				cs = constant(KUint8, uint64(c))
			}
			Ret(idBytesIndexByte, Arg{S: firstMatch(0, len(b), bn != 0, func(i int) S {
				return mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: elems[i], B: cs})
			}), F: uint64(r)})
		}
	}
	return r
}

// countMatches is the shadow of the number of positions i < n at which
// match(i) holds: a sum of if-then-else terms.
func countMatches(n int, match func(i int) S) S {
	sum := intS(0)
	for i := 0; i < n; i++ {
		one := mk(Node{Op: OpIte, K: KInt, A: match(i), B: intS(1), C: intS(0)})
		sum = mk(Node{Op: OpAdd, K: KInt, A: sum, B: one})
	}
	return sum
}

// StringsCount is strings.Count. Its result has a shadow for a one-byte,
// concrete separator (the common case of counting a delimiter); other
// separators make it concrete.
func StringsCount(s, substr string) int {
	r := strings.Count(s, substr)
	if on.Load() && Enter(idStringsCount, 2) {
		ss, ps := In(0, FS(s)), In(1, FS(substr))
		switch {
		case ss != 0 && ps == 0 && len(substr) == 1:
			L := StrLen(ss)
			n, approx := searchLen(len(s))
			if approx {
				Conc(0, "count in a value of symbolic length")
			}
			c := constant(KUint8, uint64(substr[0]))
			Ret(idStringsCount, Arg{S: countMatches(n, func(i int) S {
				in := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L})
				at := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
				eq := mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: at, B: c})
				return mk(Node{Op: OpIte, K: KBool, A: in, B: eq, C: falseS()})
			}), F: uint64(r)})
		case ss != 0 || ps != 0:
			Conc(0, "strings.Count with a symbolic or multi-byte separator")
		}
	}
	return r
}

// BytesCount is bytes.Count, with a shadow for a one-byte concrete
// separator.
func BytesCount(s, sep []byte) int {
	r := bytes.Count(s, sep)
	if on.Load() && Enter(idBytesCount, 2) {
		sn, pn := In(0, uint64(len(s))), In(1, uint64(len(sep)))
		elems, sym := byteShadows(s)
		_, psym := byteShadows(sep)
		switch {
		case pn == 0 && !psym && len(sep) == 1 && (sym || sn != 0):
			if sn != 0 {
				Conc(0, "count in a slice of symbolic length")
			}
			c := constant(KUint8, uint64(sep[0]))
			Ret(idBytesCount, Arg{S: countMatches(len(s), func(i int) S {
				return mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: elems[i], B: c})
			}), F: uint64(r)})
		case sym || sn != 0 || psym || pn != 0:
			Conc(0, "bytes.Count with a symbolic or multi-byte separator")
		}
	}
	return r
}
