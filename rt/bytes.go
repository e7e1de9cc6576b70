package rt

import (
	"bytes"
	"unsafe"
)

// Models of package bytes that are twins of the strings models. A byte
// slice has no value shadow: its elements have memory cells and the slice
// a length shadow. A model views the slice as a string (byteView: the
// list of its elements' shadows cut at its length) and builds the result
// with the strings model's shadows. Results that are sub-slices of the
// argument share its memory, so their elements' cells are already in
// place; what the model leaves is the result's length shadow, and the
// implicit branches that fix where the result starts (its elements are
// those cells only if the start is the same on every input of the path).

var (
	idBytesContains    = funcID("bytes.Contains")
	idBytesIndex       = funcID("bytes.Index")
	idBytesIndexAny    = funcID("bytes.IndexAny")
	idBytesContainsAny = funcID("bytes.ContainsAny")
	idBytesEqualFold   = funcID("bytes.EqualFold")
	idBytesTrimSpace   = funcID("bytes.TrimSpace")
	idBytesTrim        = funcID("bytes.Trim")
	idBytesTrimLeft    = funcID("bytes.TrimLeft")
	idBytesTrimRight   = funcID("bytes.TrimRight")
	idBytesTrimPrefix  = funcID("bytes.TrimPrefix")
	idBytesTrimSuffix  = funcID("bytes.TrimSuffix")
	idBytesCut         = funcID("bytes.Cut")
	idBytesFields      = funcID("bytes.Fields")
	idBytesSplit       = funcID("bytes.Split")
	idBytesSplitN      = funcID("bytes.SplitN")
	idBytesToLower     = funcID("bytes.ToLower")
	idBytesToUpper     = funcID("bytes.ToUpper")
)

// byteView is the string shadow of the bytes of b, whose length has shadow
// ls, and the shadow of that length (a constant where it is concrete): the
// list of the elements' shadows cut at the length. It holds for every
// input of the path: an input slice's elements beyond this run's length
// are in the list (their leaves), and another slice of symbolic length
// has its length chosen (elemView.fix). Both are 0 when neither the
// length nor an element is symbolic.
func byteView(b []byte, ls S) (str, length S) {
	v, ok := viewOf(b, ls)
	if !ok || !v.symbolic {
		return 0, 0
	}
	v.fix(len(b))
	list := mk(Node{Op: OpFromList, K: KString, List: v.elems})
	return mk(Node{Op: OpSlice, K: KString, A: list, B: intS(0), C: v.length}), v.length
}

// byteArg is byteView of the slice parameter i of the model entered.
func byteArg(i int, b []byte) (str, length S) {
	return byteView(b, In(i, uint64(len(b))))
}

// startAt records that a sub-slice of the argument starts at the offset
// whose shadow is lo and value v: the offset is chosen (the implicit
// branches lo == 0, ..., lo == v), since which cells the result's
// elements are depends on it.
func startAt(lo S, v int) {
	if lo != 0 && !isConst(lo) {
		choose(0, KInt, lo, uint64(v))
	}
}

// isConst reports whether s is a constant node.
func isConst(s S) bool {
	if !lock() {
		return false
	}
	defer unlock()
	return int(s) < len(cur.nodes) && cur.nodes[s].Op == OpConst
}

// lenOf is the shadow of the length of the string shadow s (0 for 0).
func lenOf(s S) S {
	if s == 0 {
		return 0
	}
	return StrLen(s)
}

// BytesIndex is bytes.Index: for a constant separator, the strings.Index
// model on the slice's bytes; a symbolic separator is a concretization.
func BytesIndex(s, sep []byte) int {
	r := bytes.Index(s, sep)
	if on.Load() && Enter(idBytesIndex, 2) {
		if sh := bytesIndex(s, sep); sh != 0 {
			Ret(idBytesIndex, Arg{S: sh, F: uint64(r)})
		}
	}
	return r
}

// BytesContains is bytes.Contains (see BytesIndex).
func BytesContains(b, subslice []byte) bool {
	r := bytes.Contains(b, subslice)
	if on.Load() && Enter(idBytesContains, 2) {
		if sh := bytesIndex(b, subslice); sh != 0 {
			Ret(idBytesContains, Arg{S: mk(Node{Op: OpGe, K: KBool, K2: KInt, A: sh, B: intS(0)}), F: B(r)})
		}
	}
	return r
}

// bytesIndex is the shadow of bytes.Index(s, sep), the model entered with
// both as parameters 0 and 1, or 0.
func bytesIndex(s, sep []byte) S {
	ss, _ := byteArg(0, s)
	if ps, _ := byteArg(1, sep); ps != 0 {
		Conc(0, "bytes.Index of a symbolic separator")
		return 0
	}
	if ss == 0 {
		return 0
	}
	return stringIndex(ss, string(s), string(sep))
}

// BytesIndexAny is bytes.IndexAny, for a constant ASCII set (see
// StringsIndexAny).
func BytesIndexAny(s []byte, chars string) int {
	r := bytes.IndexAny(s, chars)
	if on.Load() && Enter(idBytesIndexAny, 2) {
		ss, _ := byteArg(0, s)
		if sh := anyOf(ss, string(s), In(1, FS(chars)), chars, false); sh != 0 {
			Ret(idBytesIndexAny, Arg{S: sh, F: uint64(r)})
		}
	}
	return r
}

// BytesContainsAny is bytes.ContainsAny, for a constant ASCII set.
func BytesContainsAny(b []byte, chars string) bool {
	r := bytes.ContainsAny(b, chars)
	if on.Load() && Enter(idBytesContainsAny, 2) {
		ss, _ := byteArg(0, b)
		if sh := anyOf(ss, string(b), In(1, FS(chars)), chars, false); sh != 0 {
			Ret(idBytesContainsAny, Arg{S: mk(Node{Op: OpGe, K: KBool, K2: KInt, A: sh, B: intS(0)}), F: B(r)})
		}
	}
	return r
}

// BytesEqualFold is bytes.EqualFold, modelled as ASCII case folding with a
// concretization, as StringsEqualFold is.
func BytesEqualFold(s, t []byte) bool {
	r := bytes.EqualFold(s, t)
	if on.Load() && Enter(idBytesEqualFold, 2) {
		ss, _ := byteArg(0, s)
		ts, _ := byteArg(1, t)
		if ss != 0 || ts != 0 {
			Conc(0, "bytes.EqualFold: Unicode folding beyond ASCII is not modelled")
			Ret(idBytesEqualFold, Arg{S: asciiEqualFold(orStr(ss, string(s)), string(s), orStr(ts, string(t)), string(t)), F: B(r)})
		}
	}
	return r
}

// bytesTrim scans s with the strings models' scans (left and/or right,
// predicate p), which record an implicit branch on every byte they look
// at, so the path fixes where the result starts and ends but for the end
// of a left trim, which is the slice's symbolic length. It leaves the
// shadow of the length of r, the original's result.
func bytesTrim(id uint32, ss S, s []byte, p pred, left, right bool, r []byte) {
	str, rs := string(s), ss
	if left {
		str, rs = trimLeft(rs, str, p)
	}
	if right {
		str, rs = trimRight(rs, str, p)
	}
	if len(str) != len(r) {
		return // cannot happen: the scans are the original's
	}
	Ret(id, Arg{S: lenOf(rs), F: uint64(len(r))})
}

// BytesTrimSpace is bytes.TrimSpace: the scans of StringsTrimSpace.
func BytesTrimSpace(s []byte) []byte {
	r := bytes.TrimSpace(s)
	if on.Load() && Enter(idBytesTrimSpace, 1) {
		if ss, _ := byteArg(0, s); ss != 0 {
			bytesTrim(idBytesTrimSpace, ss, s, isSpace, true, true, r)
		}
	}
	return r
}

// bytesTrimCutset is the shared body of the bytes Trim models.
func bytesTrimCutset(id uint32, s []byte, cutset string, left, right bool, r []byte) []byte {
	if on.Load() && Enter(id, 2) {
		ss, _ := byteArg(0, s)
		cs := In(1, FS(cutset))
		if ss == 0 && cs == 0 {
			return r
		}
		if p, ok := cutsetPred(cs, cutset); ok && ss != 0 {
			bytesTrim(id, ss, s, p, left, right, r)
		}
	}
	return r
}

// BytesTrim is bytes.Trim, for a constant ASCII cutset.
func BytesTrim(s []byte, cutset string) []byte {
	return bytesTrimCutset(idBytesTrim, s, cutset, true, true, bytes.Trim(s, cutset))
}

// BytesTrimLeft is bytes.TrimLeft, for a constant ASCII cutset.
func BytesTrimLeft(s []byte, cutset string) []byte {
	return bytesTrimCutset(idBytesTrimLeft, s, cutset, true, false, bytes.TrimLeft(s, cutset))
}

// BytesTrimRight is bytes.TrimRight, for a constant ASCII cutset.
func BytesTrimRight(s []byte, cutset string) []byte {
	return bytesTrimCutset(idBytesTrimRight, s, cutset, false, true, bytes.TrimRight(s, cutset))
}

// BytesTrimPrefix is bytes.TrimPrefix: whether s has the prefix is an
// implicit branch (the result starts after it or at 0), and the prefix's
// length is chosen where it is symbolic; the result's length is then
// len(s) minus the prefix's or len(s).
func BytesTrimPrefix(s, prefix []byte) []byte {
	r := bytes.TrimPrefix(s, prefix)
	if on.Load() && Enter(idBytesTrimPrefix, 2) {
		ss, _ := byteArg(0, s)
		ps, pl := byteArg(1, prefix)
		if rest, has := trimAffix(ss, string(s), ps, string(prefix), false); rest != 0 {
			h := bytes.HasPrefix(s, prefix)
			Imp(0, h, has)
			if h {
				startAt(pl, len(prefix))
			}
			Ret(idBytesTrimPrefix, Arg{S: StrLen(rest), F: uint64(len(r))})
		}
	}
	return r
}

// BytesTrimSuffix is bytes.TrimSuffix: the result starts where s does, and
// its length is the strings model's.
func BytesTrimSuffix(s, suffix []byte) []byte {
	r := bytes.TrimSuffix(s, suffix)
	if on.Load() && Enter(idBytesTrimSuffix, 2) {
		ss, _ := byteArg(0, s)
		ps, _ := byteArg(1, suffix)
		if rest, _ := trimAffix(ss, string(s), ps, string(suffix), true); rest != 0 {
			Ret(idBytesTrimSuffix, Arg{S: StrLen(rest), F: uint64(len(r))})
		}
	}
	return r
}

// BytesCut is bytes.Cut, for a constant separator: found is the strings
// model's "the index is not -1", and where it is found its index is
// chosen (after starts past it); before is s up to the index, or all of
// s, and after the rest of s.
func BytesCut(s, sep []byte) (before, after []byte, found bool) {
	before, after, found = bytes.Cut(s, sep)
	if on.Load() && Enter(idBytesCut, 2) {
		ss, L := byteArg(0, s)
		if ps, _ := byteArg(1, sep); ps != 0 {
			Conc(0, "bytes.Cut with a symbolic separator")
			return
		}
		if ss == 0 {
			return
		}
		idx := stringIndex(ss, string(s), string(sep))
		f := mk(Node{Op: OpGe, K: KBool, K2: KInt, A: idx, B: intS(0)})
		Imp(0, found, f)
		if !found {
			Ret(idBytesCut, Arg{S: L, F: uint64(len(before))}, Arg{}, Arg{S: f, F: B(found)})
			return
		}
		i := len(before)
		choose(0, KInt, idx, uint64(i))
		rest := mk(Node{Op: OpSub, K: KInt, A: L, B: intS(i + len(sep))})
		Ret(idBytesCut, Arg{S: idx, F: uint64(len(before))}, Arg{S: rest, F: uint64(len(after))}, Arg{S: f, F: B(found)})
	}
	return
}

// partsModel gives the parts r of s (each a sub-slice of s) their length
// shadows, from the bounds the strings model computes: the number of
// parts is chosen (the model records a choice for each part, so the path
// must fix how many there are), each part's start is chosen (its elements
// are s's cells from there on) and its length is end - start. starts are
// the parts' offsets in s.
func partsModel(id uint32, count S, bounds [][2]S, starts []int, r [][]byte) {
	choose(0, KInt, count, uint64(len(r)))
	for k := range r {
		startAt(bounds[k][0], starts[k])
		n := mk(Node{Op: OpSub, K: KInt, A: bounds[k][1], B: intS(starts[k])})
		St(uintptr(unsafe.Pointer(&r[k])), n, uint64(len(r[k])))
	}
	Ret(id, Arg{S: count, F: uint64(len(r))})
}

// BytesFields is bytes.Fields, for ASCII text (see StringsFields): the
// number of fields and each field's end are the strings model's, each
// field's start is chosen. Text that is not ASCII is a concretization.
func BytesFields(s []byte) [][]byte {
	r := bytes.Fields(s)
	if on.Load() && Enter(idBytesFields, 1) {
		if ss, _ := byteArg(0, s); ss != 0 {
			if count, bounds, ok := fieldsBounds(ss, string(s), len(r)); ok {
				var starts []int
				for i := range s {
					if !asciiSpace(s[i]) && (i == 0 || asciiSpace(s[i-1])) {
						starts = append(starts, i)
					}
				}
				if len(starts) == len(r) {
					partsModel(idBytesFields, count, bounds, starts, r)
				}
			}
		}
	}
	return r
}

// asciiSpace reports whether b is an ASCII space, as bytes.Fields sees it.
func asciiSpace(b byte) bool { return b == ' ' || b >= '\t' && b <= '\r' }

// BytesSplit is bytes.Split (see bytesSplit).
func BytesSplit(s, sep []byte) [][]byte {
	r := bytes.Split(s, sep)
	if on.Load() && Enter(idBytesSplit, 2) {
		bytesSplit(idBytesSplit, s, sep, 0, -1, r)
	}
	return r
}

// BytesSplitN is bytes.SplitN (see bytesSplit).
func BytesSplitN(s, sep []byte, n int) [][]byte {
	r := bytes.SplitN(s, sep, n)
	if on.Load() && Enter(idBytesSplitN, 3) {
		bytesSplit(idBytesSplitN, s, sep, In(2, uint64(n)), n, r)
	}
	return r
}

// bytesSplit gives the parts r of splitting s around a constant one-byte
// separator into at most n parts (a constant count) their length shadows:
// the number of parts and their ends are the strings model's, their
// starts are chosen. Other separators and symbolic counts record a
// concretization.
func bytesSplit(id uint32, s, sep []byte, ns S, n int, r [][]byte) {
	ss, _ := byteArg(0, s)
	ps, _ := byteArg(1, sep)
	switch {
	case ss == 0 && ps == 0 && ns == 0:
		return
	case ps != 0 || ns != 0:
		Conc(0, "bytes.Split with a symbolic separator or count")
		return
	case len(sep) != 1:
		Conc(0, "bytes.Split with a separator that is not one byte")
		return
	case n == 0:
		return // nil, whatever s is
	}
	count, bounds := splitBounds(ss, string(s), sep[0], n, len(r))
	starts := make([]int, len(r))
	for k := 1; k < len(r); k++ {
		starts[k] = starts[k-1] + len(r[k-1]) + 1
	}
	partsModel(id, count, bounds, starts, r)
}

// BytesToLower is bytes.ToLower, for ASCII text: the length is chosen and
// each byte of the new slice gets its shadow (see StringsToLower).
func BytesToLower(s []byte) []byte {
	return bytesCase(idBytesToLower, s, bytes.ToLower(s), false)
}

// BytesToUpper is bytes.ToUpper, for ASCII text.
func BytesToUpper(s []byte) []byte {
	return bytesCase(idBytesToUpper, s, bytes.ToUpper(s), true)
}

// bytesCase is the shared body of the bytes case mappings: r is the
// original's result, a new slice.
func bytesCase(id uint32, s, r []byte, upper bool) []byte {
	if on.Load() && Enter(id, 1) {
		if ss, _ := byteArg(0, s); ss != 0 {
			if list := caseBytes(ss, string(s), upper); list != nil && len(list) == len(r) {
				for i := range r {
					St(uintptr(unsafe.Pointer(&r[i])), list[i], uint64(r[i]))
				}
				Ret(id, Arg{F: uint64(len(r))})
			}
		}
	}
	return r
}
