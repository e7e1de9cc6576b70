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
	L := StrLen(ss)
	m, approx := searchLen(len(s))
	if approx {
		Conc(0, "split of a value of symbolic length")
	}
	c := constant(KUint8, uint64(sep[0]))
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
	start := intS(0)
	for k := range r {
		end := L
		if k != n-1 {
			// The first separator at or after start, else the end.
			for i := m - 1; i >= 0; i-- {
				after := mk(Node{Op: OpLe, K: KBool, K2: KInt, A: start, B: intS(i)})
				hit := mk(Node{Op: OpIte, K: KBool, A: after, B: isSep(i), C: falseS()})
				end = mk(Node{Op: OpIte, K: KInt, A: hit, B: intS(i), C: end})
			}
		}
		part := mk(Node{Op: OpSlice, K: KString, A: ss, B: start, C: end})
		St(uintptr(unsafe.Pointer(&r[k])), part, FS(r[k]))
		// Past the separator; kept within s for inputs that have no
		// further part, so that every slice's bounds are valid.
		more := mk(Node{Op: OpLt, K: KBool, K2: KInt, A: end, B: L})
		start = mk(Node{Op: OpIte, K: KInt, A: more, B: mk(Node{Op: OpAdd, K: KInt, A: end, B: intS(1)}), C: L})
	}
	Ret(id, Arg{S: length, F: uint64(len(r))})
}
