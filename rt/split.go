package rt

import (
	"strings"
	"unsafe"
)

var (
	idStringsSplit  = funcID("strings.Split")
	idStringsSplitN = funcID("strings.SplitN")
)

// StringsSplit is strings.Split (see splitModel).
func StringsSplit(s, sep string) []string {
	r := strings.Split(s, sep)
	if on.Load() && Enter(idStringsSplit, 2) {
		ss, ps := In(0, FS(s)), In(1, FS(sep))
		splitModel(idStringsSplit, ss, s, ps, sep, 0, -1, r)
	}
	return r
}

// StringsSplitN is strings.SplitN (see splitModel).
func StringsSplitN(s, sep string, n int) []string {
	r := strings.SplitN(s, sep, n)
	if on.Load() && Enter(idStringsSplitN, 3) {
		ss, ps, ns := In(0, FS(s)), In(1, FS(sep)), In(2, uint64(n))
		splitModel(idStringsSplitN, ss, s, ps, sep, ns, n, r)
	}
	return r
}

// splitModel gives the result r of splitting s around sep into at most n
// parts (n < 0: all) its shadows, for a symbolic s and a concrete one-byte
// separator and count: the result's length is min(count(s, sep)+1, n), an
// exact count over every position an input string can have (guarded by
// its symbolic length); part k is s[start_k:end_k], where end_k is the
// first separator at or after start_k (the end of s if none, and for the
// last of n parts) and start_k+1 = end_k+1 (end_k where that is the
// end). Each part's shadow holds for
// every input on which the result has that part. Other separators and
// symbolic counts record a concretization.
func splitModel(id uint32, ss S, s string, ps S, sep string, ns S, n int, r []string) {
	switch {
	case ss == 0 && ps == 0 && ns == 0:
		return
	case ps != 0 || ns != 0:
		Conc(0, "strings.Split with a symbolic separator or count")
		return
	case len(sep) != 1:
		Conc(0, "strings.Split with a separator that is not one byte")
		return
	case n == 0:
		return // nil, whatever s is
	}
	length, bounds := splitBounds(ss, s, sep[0], n, len(r))
	for k := range r {
		part := mk(Node{Op: OpSlice, K: KString, A: ss, B: bounds[k][0], C: bounds[k][1]})
		St(uintptr(unsafe.Pointer(&r[k])), part, FS(r[k]))
	}
	Ret(id, Arg{S: length, F: uint64(len(r))})
}

// splitBounds is the shadow of the number of parts of s (shadow ss) split
// around the byte sep into at most n parts (n < 0: all), and the bounds
// (start, end) of its first parts parts, as described at splitModel.
func splitBounds(ss S, s string, sep byte, n, parts int) (S, [][2]S) {
	L := StrLen(ss)
	m, approx := searchLen(len(s))
	if approx {
		Conc(0, "split of a value of symbolic length")
	}
	c := constant(KUint8, uint64(sep))
	seps := make([]S, m)
	isSep := func(i int) S {
		if seps[i] == 0 {
			in := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L})
			at := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
			seps[i] = mk(Node{Op: OpIte, K: KBool, A: in, B: mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: at, B: c}), C: falseS()})
		}
		return seps[i]
	}
	count := countMatches(m, isSep)
	length := mk(Node{Op: OpAdd, K: KInt, A: count, B: intS(1)})
	if n > 0 {
		less := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: length, B: intS(n)})
		length = mk(Node{Op: OpIte, K: KInt, A: less, B: length, C: intS(n)})
	}
	bounds := make([][2]S, parts)
	start := intS(0)
	for k := range bounds {
		end := L
		if k != n-1 {
			// The first separator at or after start, else the end.
			for i := m - 1; i >= 0; i-- {
				after := mk(Node{Op: OpLe, K: KBool, K2: KInt, A: start, B: intS(i)})
				hit := mk(Node{Op: OpIte, K: KBool, A: after, B: isSep(i), C: falseS()})
				end = mk(Node{Op: OpIte, K: KInt, A: hit, B: intS(i), C: end})
			}
		}
		bounds[k] = [2]S{start, end}
		// Past the separator; kept within s for inputs that have no
		// further part, so that every slice's bounds are valid.
		more := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: end, B: L})
		start = mk(Node{Op: OpIte, K: KInt, A: more, B: mk(Node{Op: OpAdd, K: KInt, A: end, B: intS(1)}), C: L})
	}
	return length, bounds
}

var idStringsFields = funcID("strings.Fields")

// StringsFields is strings.Fields: for an ASCII string, the fields are the
// maximal runs of bytes that are not ASCII spaces, and the model gives
// the result's length (the number of field starts: a non-space at 0 or
// after a space, over every position an input can have) and each field a
// shadow s[start_k:end_k] (start_k the first field start at or after
// end_k-1, end_k the first space at or after start_k, or the end).
// Whether every byte is ASCII is an implicit branch: Unicode spaces
// (U+0085, U+00A0 and others) are not modelled, so a string that is not
// ASCII records a concretization.
func StringsFields(s string) []string {
	r := strings.Fields(s)
	if on.Load() && Enter(idStringsFields, 1) {
		if ss := In(0, FS(s)); ss != 0 {
			fieldsModel(ss, s, r)
		}
	}
	return r
}

func fieldsModel(ss S, s string, r []string) {
	count, bounds, ok := fieldsBounds(ss, s, len(r))
	if !ok {
		return
	}
	for k := range r {
		St(uintptr(unsafe.Pointer(&r[k])), mk(Node{Op: OpSlice, K: KString, A: ss, B: bounds[k][0], C: bounds[k][1]}), FS(r[k]))
	}
	Ret(idStringsFields, Arg{S: count, F: uint64(len(r))})
}

// fieldsBounds is the shadow of the number of fields of s (shadow ss) and
// the bounds (start, end) of its first parts parts, as described at
// StringsFields; ok is false (and a concretization recorded) when s is not
// ASCII.
func fieldsBounds(ss S, s string, parts int) (count S, bounds [][2]S, ok bool) {
	L := StrLen(ss)
	m, approx := searchLen(len(s))
	if approx {
		Conc(0, "fields of a value of symbolic length")
	}
	in := func(i int) S { return mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: L}) }
	ascii := true
	all := constant(KBool, 1)
	space := make([]S, m) // byte i is a space (false beyond the end)
	for i := 0; i < m; i++ {
		b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: ss, B: intS(i)})
		low := mk(Node{Op: OpLt, K: KBool, K2: KUint8, A: b, B: constant(KUint8, utf8RuneSelf)})
		all = mk(Node{Op: OpLAnd, K: KBool, A: all, B: mk(Node{Op: OpIte, K: KBool, A: in(i), B: low, C: constant(KBool, 1)})})
		if i < len(s) {
			ascii = ascii && s[i] < utf8RuneSelf
		}
		ws := mk(Node{Op: OpLOr, K: KBool,
			A: mk(Node{Op: OpEq, K: KBool, K2: KUint8, A: b, B: constant(KUint8, ' ')}),
			B: mk(Node{Op: OpLAnd, K: KBool,
				A: mk(Node{Op: OpGe, K: KBool, K2: KUint8, A: b, B: constant(KUint8, '\t')}),
				B: mk(Node{Op: OpLe, K: KBool, K2: KUint8, A: b, B: constant(KUint8, '\r')})})})
		space[i] = mk(Node{Op: OpIte, K: KBool, A: in(i), B: ws, C: falseS()})
	}
	Imp(0, ascii, all)
	if !ascii {
		Conc(0, "fields of a value that is not ASCII")
		return 0, nil, false
	}
	// start[i]: a field starts at i.
	start := make([]S, m)
	for i := 0; i < m; i++ {
		word := mk(Node{Op: OpLAnd, K: KBool, A: in(i), B: mk(Node{Op: OpNot, K: KBool, A: space[i]})})
		if i > 0 {
			word = mk(Node{Op: OpLAnd, K: KBool, A: word, B: space[i-1]})
		}
		start[i] = word
	}
	count = countMatches(m, func(i int) S { return start[i] })
	// first returns the first i >= from (a shadow) where at(i), else L.
	first := func(from S, at []S) S {
		acc := L
		for i := m - 1; i >= 0; i-- {
			after := mk(Node{Op: OpLe, K: KBool, K2: KInt, A: from, B: intS(i)})
			hit := mk(Node{Op: OpLAnd, K: KBool, A: after, B: at[i]})
			acc = mk(Node{Op: OpIte, K: KInt, A: hit, B: intS(i), C: acc})
		}
		return acc
	}
	end := intS(0)
	for k := 0; k < parts; k++ {
		lo := first(end, start)
		end = first(lo, space)
		bounds = append(bounds, [2]S{lo, end})
	}
	return count, bounds, true
}
