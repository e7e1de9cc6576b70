package rt

import (
	"strings"
	"unsafe"
)

// StrCmp is the shadow of the string comparison a op b.
func StrCmp(op Op, a S, av string, b S, bv string) S {
	return strBinary(Node{Op: op, K: KBool, K2: KString}, a, av, b, bv)
}

// strBinary is node n with string operands a and b; a concrete operand
// (shadow 0) becomes a constant. No node when both are concrete.
func strBinary(n Node, a S, av string, b S, bv string) S {
	if a == 0 && b == 0 || !on.Load() {
		return 0
	}
	n.A, n.B = orStr(a, av), orStr(b, bv)
	return mk(n)
}

// Concat is the shadow of a + b for strings.
func Concat(a S, av string, b S, bv string) S {
	return strBinary(Node{Op: OpConcat, K: KString}, a, av, b, bv)
}

// StrLen is the shadow of len(s).
func StrLen(s S) S {
	if s == 0 || !on.Load() {
		return 0
	}
	return mk(Node{Op: OpLen, K: KInt, A: s})
}

// StrIndex is the shadow of s[i] (i of kind ki); it records the bounds
// check at site.
func StrIndex(site uint32, s S, sv string, ki Kind, i S, iv uint64) S {
	if s == 0 && i == 0 || !on.Load() {
		return 0
	}
	Bounds(site, ki, i, iv, StrLen(s), uint64(len(sv)))
	if s == 0 {
		s = strConst(sv)
	}
	if i == 0 {
		i = constant(ki, iv)
	} else if iv < uint64(len(sv)) && (picked(i) || determined(i) || selectDepth(i) >= maxSelectDepth) {
		// As LdSym: selections do not nest. The index is chosen,
		// and the byte read at its value.
		choose(site, ki, i, iv)
		i = constant(ki, iv)
	}
	x := mk(Node{Op: OpIndex, K: KUint8, K2: ki, A: s, B: i})
	if !isConst(i) {
		setSelectDepth(x, selectDepth(i)+1)
	}
	return x
}

// StrSlice is the shadow of s[lo:hi]; lov and hiv are the bounds' values
// (hi defaults to len(s)).
func StrSlice(site uint32, s S, sv string, lo S, lov uint64, hi S, hiv uint64) S {
	if s == 0 && lo == 0 && hi == 0 || !on.Load() {
		return 0
	}
	n := StrLen(s)
	if hi == 0 && s != 0 && hiv == uint64(len(sv)) {
		hi = n
	}
	SliceBounds(site, lo, lov, hi, hiv, n, uint64(len(sv)))
	if s == 0 {
		s = strConst(sv)
	}
	if lo == 0 {
		lo = constant(KInt, lov)
	}
	if hi == 0 {
		hi = constant(KInt, hiv)
	}
	return mk(Node{Op: OpSlice, K: KString, A: s, B: lo, C: hi})
}

// StrFromBytes is the shadow of string(b) where the slice b has length
// shadow n.
func StrFromBytes(site uint32, b []byte, n S) S {
	if !on.Load() || len(cur.mem) == 0 && n == 0 {
		return 0
	}
	list, sym := byteShadows(b)
	if n != 0 {
		// The string's shadow is the list of the bytes there are now:
		// exact when the length is fixed, so it is chosen like an index
		// (every length in range gets its run; longer ones are pinned).
		choose(site, KInt, n, uint64(len(b)))
	}
	if !sym {
		return 0
	}
	return mk(Node{Op: OpFromList, K: KString, List: list})
}

// BytesFromStr gives the elements of b = []byte(sv) their shadows and
// returns the shadow of len(b).
func BytesFromStr(b []byte, s S) S {
	if s == 0 || !on.Load() {
		return 0
	}
	for i := range b {
		idx := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: s, B: constant(KInt, uint64(i))})
		St(uintptr(unsafe.Pointer(&b[i])), idx, uint64(b[i]))
	}
	return StrLen(s)
}

// RuneAt is the shadow of the rune decoded at byte offset i of s in a range
// loop: an ASCII byte is its own rune (the implicit branch s[i] < 0x80 is
// recorded); a multi-byte rune is concrete.
func RuneAt(site uint32, s S, sv string, i int) S {
	if s == 0 || !on.Load() || i >= len(sv) {
		return 0
	}
	b := StrIndex(site, s, sv, KInt, 0, uint64(i))
	ascii := sv[i] < 0x80
	Imp(site, ascii, Cmp(OpLt, KUint8, b, 0, 0, 0x80))
	if ascii {
		return Conv(KInt32, KUint8, b)
	}
	Conc(site, "multi-byte rune")
	return 0
}

var idStringsCut = funcID("strings.Cut")

// StringsCut is strings.Cut. For a symbolic s and a constant separator,
// found is "the separator's index is not -1" (the index's shadow is
// strings.Index's model), and before and after are slices of s at that
// index — at the end of s when it is not found, so that the slices' bounds
// are valid on every input.
func StringsCut(s, sep string) (before, after string, found bool) {
	before, after, found = strings.Cut(s, sep)
	if on.Load() && Enter(idStringsCut, 2) {
		ss, ps := In(0, FS(s)), In(1, FS(sep))
		switch {
		case ps != 0:
			Conc(0, "strings.Cut with a symbolic separator")
		case ss != 0:
			idx := stringIndex(ss, s, sep)
			L := StrLen(ss)
			f := mk(Node{Op: OpGe, K: KBool, K2: KInt, A: idx, B: intS(0)})
			end := mk(Node{Op: OpIte, K: KInt, A: f, B: idx, C: L})
			start := mk(Node{Op: OpIte, K: KInt, A: f, B: mk(Node{Op: OpAdd, K: KInt, A: idx, B: intS(len(sep))}), C: L})
			Ret(idStringsCut,
				Arg{S: mk(Node{Op: OpSlice, K: KString, A: ss, B: intS(0), C: end}), F: FS(before)},
				Arg{S: mk(Node{Op: OpSlice, K: KString, A: ss, B: start, C: L}), F: FS(after)},
				Arg{S: f, F: B(found)})
		}
	}
	return before, after, found
}

var (
	idStringsTrimPrefix = funcID("strings.TrimPrefix")
	idStringsTrimSuffix = funcID("strings.TrimSuffix")
	idStringsCutPrefix  = funcID("strings.CutPrefix")
	idStringsCutSuffix  = funcID("strings.CutSuffix")
)

// trimAffix is the shadow of s without the prefix (or suffix) p, and of
// whether s has it, for string shadows ss and ps (0 for constants); both
// 0 when everything is concrete. The slice's bounds are valid on every
// input: without the affix the slice is all of s.
func trimAffix(ss S, s string, ps S, p string, suffix bool) (rest, has S) {
	if ss == 0 && ps == 0 {
		return 0, 0
	}
	has = affix(ss, s, ps, p, suffix)
	ss = orStr(ss, s)
	ls, lp := StrLen(ss), StrLen(orStr(ps, p))
	if suffix {
		hi := mk(Node{Op: OpIte, K: KInt, A: has, B: mk(Node{Op: OpSub, K: KInt, A: ls, B: lp}), C: ls})
		return mk(Node{Op: OpSlice, K: KString, A: ss, B: intS(0), C: hi}), has
	}
	lo := mk(Node{Op: OpIte, K: KInt, A: has, B: lp, C: intS(0)})
	return mk(Node{Op: OpSlice, K: KString, A: ss, B: lo, C: ls}), has
}

// StringsTrimPrefix is strings.TrimPrefix.
func StringsTrimPrefix(s, prefix string) string {
	r := strings.TrimPrefix(s, prefix)
	if on.Load() && Enter(idStringsTrimPrefix, 2) {
		if rest, _ := trimAffix(In(0, FS(s)), s, In(1, FS(prefix)), prefix, false); rest != 0 {
			Ret(idStringsTrimPrefix, Arg{S: rest, F: FS(r)})
		}
	}
	return r
}

// StringsTrimSuffix is strings.TrimSuffix.
func StringsTrimSuffix(s, suffix string) string {
	r := strings.TrimSuffix(s, suffix)
	if on.Load() && Enter(idStringsTrimSuffix, 2) {
		if rest, _ := trimAffix(In(0, FS(s)), s, In(1, FS(suffix)), suffix, true); rest != 0 {
			Ret(idStringsTrimSuffix, Arg{S: rest, F: FS(r)})
		}
	}
	return r
}

// StringsCutPrefix is strings.CutPrefix.
func StringsCutPrefix(s, prefix string) (after string, found bool) {
	after, found = strings.CutPrefix(s, prefix)
	if on.Load() && Enter(idStringsCutPrefix, 2) {
		if rest, has := trimAffix(In(0, FS(s)), s, In(1, FS(prefix)), prefix, false); rest != 0 {
			Ret(idStringsCutPrefix, Arg{S: rest, F: FS(after)}, Arg{S: has, F: B(found)})
		}
	}
	return after, found
}

// StringsCutSuffix is strings.CutSuffix.
func StringsCutSuffix(s, suffix string) (before string, found bool) {
	before, found = strings.CutSuffix(s, suffix)
	if on.Load() && Enter(idStringsCutSuffix, 2) {
		if rest, has := trimAffix(In(0, FS(s)), s, In(1, FS(suffix)), suffix, true); rest != 0 {
			Ret(idStringsCutSuffix, Arg{S: rest, F: FS(before)}, Arg{S: has, F: B(found)})
		}
	}
	return before, found
}

var (
	idStringsToLower = funcID("strings.ToLower")
	idStringsToUpper = funcID("strings.ToUpper")
)

// caseMap is the shadow of strings.ToLower (upper false) or ToUpper of s
// (shadow ss) for ASCII strings: byte by byte, letters of the other case
// moved by 32. The run chooses s's length (Pick) and records "every byte
// is ASCII" as an implicit branch; where it is not, Unicode case mapping
// may change the length, and the run records a concretization instead.
func caseMap(ss S, s string, upper bool) S {
	bytes := caseBytes(ss, s, upper)
	if bytes == nil {
		return 0
	}
	return mk(Node{Op: OpFromList, K: KString, List: bytes})
}

// caseBytes is caseMap's list of the result's byte shadows, nil where s is
// not ASCII.
func caseBytes(ss S, s string, upper bool) []S {
	choose(0, KInt, StrLen(ss), uint64(len(s)))
	ascii := true
	for i := 0; i < len(s); i++ {
		ascii = ascii && s[i] < utf8RuneSelf
	}
	all := constant(KBool, 1)
	bytes := make([]S, len(s))
	from, to := byte('A'), byte('Z')
	delta := uint64(32)
	if upper {
		from, to, delta = 'a', 'z', uint64(0x100-32)
	}
	for i := range bytes {
		b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		all = mk(Node{Op: OpLAnd, K: KBool, A: all, B: mk(Node{Op: OpLt, K: KBool, K2: KUint8, A: b, B: constant(KUint8, utf8RuneSelf)})})
		letter := mk(Node{Op: OpLAnd, K: KBool,
			A: mk(Node{Op: OpGe, K: KBool, K2: KUint8, A: b, B: constant(KUint8, uint64(from))}),
			B: mk(Node{Op: OpLe, K: KBool, K2: KUint8, A: b, B: constant(KUint8, uint64(to))})})
		bytes[i] = mk(Node{Op: OpIte, K: KUint8, A: letter, B: mk(Node{Op: OpAdd, K: KUint8, A: b, B: constant(KUint8, delta)}), C: b})
	}
	Imp(0, ascii, all)
	if !ascii {
		Conc(0, "case mapping of text that is not ASCII")
		return nil
	}
	return bytes
}

// utf8RuneSelf is utf8.RuneSelf: bytes below it are ASCII.
const utf8RuneSelf = 0x80

// StringsToLower is strings.ToLower.
func StringsToLower(s string) string {
	return caseModel(idStringsToLower, s, strings.ToLower(s), false)
}

// StringsToUpper is strings.ToUpper.
func StringsToUpper(s string) string {
	return caseModel(idStringsToUpper, s, strings.ToUpper(s), true)
}

// caseModel takes the argument shadow of a case mapping (function id) of
// s, whose result is r, and leaves the result's shadow.
func caseModel(id uint32, s, r string, upper bool) string {
	if on.Load() && Enter(id, 1) {
		if ss := In(0, FS(s)); ss != 0 {
			if rs := caseMap(ss, s, upper); rs != 0 {
				Ret(id, Arg{S: rs, F: FS(r)})
			}
		}
	}
	return r
}

var idStringsRepeat = funcID("strings.Repeat")

// StringsRepeat is strings.Repeat. For a symbolic count n the implicit
// branches are the original's and the allocation bound's: n >= 0 (a
// negative count panics, as the original does), then len(s)*n <= MaxAlloc
// unless s is empty (a run whose result would be longer stops before it
// allocates, as a make of a symbolic length does); the count is then
// chosen (Pick: one run per count, a count above MaxPick pinned with a
// concretization), and the result is s repeated that many times: a
// concatenation of s's shadow, exact for the path whatever s holds.
func StringsRepeat(s string, count int) string {
	if !on.Load() || !Enter(idStringsRepeat, 2) {
		return strings.Repeat(s, count)
	}
	ss, ns := In(0, FS(s)), In(1, uint64(count))
	if ns != 0 {
		Imp(0, count >= 0, mk(Node{Op: OpGe, K: KBool, K2: KInt, A: ns, B: intS(0)}))
		if count < 0 {
			return strings.Repeat(s, count) // panics
		}
		L := StrLen(orStr(ss, s))
		empty := mk(Node{Op: OpEq, K: KBool, K2: KInt, A: L, B: intS(0)})
		small := mk(Node{Op: OpLAnd, K: KBool,
			A: mk(Node{Op: OpLe, K: KBool, K2: KInt, A: ns, B: intS(MaxAlloc)}),
			B: mk(Node{Op: OpLe, K: KBool, K2: KInt, A: mk(Node{Op: OpMul, K: KInt, A: L, B: ns}), B: intS(MaxAlloc)})})
		within := len(s) == 0 || count <= MaxAlloc && len(s)*count <= MaxAlloc
		Imp(0, within, mk(Node{Op: OpLOr, K: KBool, A: empty, B: small}))
		if !within && lock() {
			cur.allocBound = true
			unlock()
			stopRun()
		}
		choose(0, KInt, ns, uint64(count))
	}
	r := strings.Repeat(s, count)
	if ss != 0 && count > 0 {
		// s repeated count times, by doubling: the shadows of s repeated
		// 1, 2, 4, ... times, concatenated as count's bits say.
		var acc S
		for p := ss; count > 0; count >>= 1 {
			if count&1 != 0 {
				if acc == 0 {
					acc = p
				} else {
					acc = mk(Node{Op: OpConcat, K: KString, A: acc, B: p})
				}
			}
			if count > 1 {
				p = mk(Node{Op: OpConcat, K: KString, A: p, B: p})
			}
		}
		Ret(idStringsRepeat, Arg{S: acc, F: FS(r)})
	}
	return r
}
