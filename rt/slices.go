package rt

import (
	"reflect"
	"slices"
	"unsafe"
)

// Models of package slices. Clone and Delete, for any element type, move
// the elements' shadows with the elements and give the result's length
// its shadow. Contains, Index and Equal, for slices of integers, bools
// and strings, have shadows of their results. Their shadows are disjunctions and
// if-then-else chains over the elements, each position guarded by the
// symbolic length; for an input slice the positions of the elements a
// longer input would have are included (their leaves), so the shadow holds
// for every length the input can take. A slice of symbolic length that is
// not an input (it was sliced, appended to...) may be longer in another
// run than the elements this run can see: its length is chosen (elemView.fix).

var (
	idSlicesContains = funcID("slices.Contains")
	idSlicesIndex    = funcID("slices.Index")
	idSlicesEqual    = funcID("slices.Equal")
	idSlicesClone    = funcID("slices.Clone")
	idSlicesDelete   = funcID("slices.Delete")
)

// elemView is what a model knows of the elements of a slice: the shadows
// of the positions any run with the same path can have, the length's
// shadow, and whether that view is exact.
type elemView struct {
	elems    []S // position i's shadow (a constant where the element is concrete)
	length   S   // the length's shadow, or a constant
	exact    bool
	symbolic bool // some element or the length has a shadow
}

// viewOf describes the elements of s (length shadow ls), or reports false
// for element kinds the models do not cover.
func viewOf[E any](s []E, ls S) (elemView, bool) {
	k := kindOf(reflect.TypeFor[E]())
	if k == KInvalid {
		return elemView{}, false
	}
	v := elemView{length: ls, exact: true, symbolic: ls != 0}
	if ls == 0 {
		v.length = intS(len(s))
	}
	base := unsafe.Pointer(unsafe.SliceData(s))
	size := unsafe.Sizeof(*new(E))
	count, inMemory := len(s), len(s)
	var in inputSlice
	isInput := false
	if lock() {
		if base != nil {
			in, isInput = cur.slices[uintptr(base)]
		} else if ls != 0 {
			in, isInput = cur.emptySlices[ls]
		}
		unlock()
	}
	if isInput {
		count, inMemory = max(len(s), len(in.elems)), max(len(s), min(in.n, cap(s)))
	} else if ls != 0 {
		v.exact = false
	}
	if count > maxIteElems {
		count, v.exact = len(s), ls == 0
		inMemory = count
	}
	for i := 0; i < count; i++ {
		var e S
		if i < inMemory {
			var sym bool
			e, sym = memShadow(unsafe.Add(base, uintptr(i)*size), k)
			v.symbolic = v.symbolic || sym
		} else {
			e = in.elems[i]
			v.symbolic = true
		}
		if e == 0 {
			return elemView{}, false
		}
		v.elems = append(v.elems, e)
	}
	return v, true
}

// memShadow is the shadow of the value of kind k at p: its cell, or the
// value as a constant (sym false).
func memShadow(p unsafe.Pointer, k Kind) (S, bool) {
	if k == KString {
		str := *(*string)(p)
		if lock() {
			c, ok := cur.mem[uintptr(p)]
			unlock()
			if ok && c.fp == FS(str) {
				return c.s, true
			}
		}
		return strConst(str), false
	}
	bits := readBits(p, k)
	if lock() {
		c, ok := cur.mem[uintptr(p)]
		unlock()
		if ok && c.fp == fingerprintBits(k, bits) {
			return c.s, true
		}
	}
	return constant(k, bits), false
}

// valueOf is the shadow of v (vs, or v as a constant) and v's fingerprint.
func valueOf[E any](v E, k Kind) (fp uint64, constS func() S) {
	p := unsafe.Pointer(&v)
	if k == KString {
		str := *(*string)(p)
		return FS(str), func() S { return strConst(str) }
	}
	bits := readBits(p, k)
	return fingerprintBits(k, bits), func() S { return constant(k, bits) }
}

// fix makes an inexact view exact: a slice of symbolic length whose
// elements in a longer run this run cannot see (it is not an input) has
// its length chosen, as an index is (Pick): the implicit branches
// "length == 0", ..., "length == n", which the search negates like any
// branch to try other lengths. The view's shadows then hold for every
// input of the path.
func (v *elemView) fix(n int) {
	if v.exact {
		return
	}
	choose(0, KInt, v.length, uint64(n))
	v.exact = true
}

// inRange is the shadow of i < length.
func (v elemView) inRange(i int) S {
	return mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: v.length})
}

// matches is the shadow of "position i exists and equals x".
func (v elemView) matches(i int, k Kind, x S) S {
	eq := mk(Node{Op: OpEq, K: KBool, K2: k, A: v.elems[i], B: x})
	return mk(Node{Op: OpLAnd, K: KBool, A: v.inRange(i), B: eq})
}

// SlicesContains is slices.Contains.
func SlicesContains[S ~[]E, E comparable](s S, x E) bool {
	r := slices.Contains(s, x)
	if on.Load() && Enter(idSlicesContains, 2) {
		Ret(idSlicesContains, Arg{S: searchIn(s, x, true), F: B(r)})
	}
	return r
}

// SlicesIndex is slices.Index.
func SlicesIndex[S ~[]E, E comparable](s S, x E) int {
	r := slices.Index(s, x)
	if on.Load() && Enter(idSlicesIndex, 2) {
		Ret(idSlicesIndex, Arg{S: searchIn(s, x, false), F: uint64(r)})
	}
	return r
}

// searchIn takes the argument shadows of a search of x in s, whose
// prologue the caller entered, and returns the result's shadow.
func searchIn[E any](s []E, x E, contains bool) S {
	k := kindOf(reflect.TypeFor[E]())
	fp, xc := valueOf(x, k)
	ls, xs := In(0, uint64(len(s))), In(1, fp)
	return search(s, ls, xs, xc, k, contains)
}

// search is the shadow of slices.Contains (contains) or slices.Index of x
// (shadow xs, constant xc) in s (length shadow ls), or 0 where everything
// is concrete or the elements are not covered.
func search[E any](s []E, ls S, xs S, xc func() S, k Kind, contains bool) S {
	if k == KInvalid {
		return 0
	}
	v, ok := viewOf(s, ls)
	if !ok || !v.symbolic && xs == 0 {
		return 0
	}
	if xs == 0 {
		xs = xc()
	}
	v.fix(len(s))
	if contains {
		acc := falseS()
		for i := len(v.elems) - 1; i >= 0; i-- {
			acc = mk(Node{Op: OpLOr, K: KBool, A: v.matches(i, k, xs), B: acc})
		}
		return acc
	}
	acc := constant(KInt, ^uint64(0)) // -1
	for i := len(v.elems) - 1; i >= 0; i-- {
		acc = mk(Node{Op: OpIte, K: KInt, A: v.matches(i, k, xs), B: intS(i), C: acc})
	}
	return acc
}

// SlicesEqual is slices.Equal.
func SlicesEqual[S ~[]E, E comparable](a, b S) bool {
	r := slices.Equal(a, b)
	if on.Load() && Enter(idSlicesEqual, 2) {
		la, lb := In(0, uint64(len(a))), In(1, uint64(len(b)))
		Ret(idSlicesEqual, Arg{S: equal(a, la, b, lb), F: B(r)})
	}
	return r
}

// equal is the shadow of slices.Equal(a, b): equal lengths and, at every
// position below the length, equal elements.
func equal[E any](a []E, la S, b []E, lb S) S {
	k := kindOf(reflect.TypeFor[E]())
	if k == KInvalid {
		return 0
	}
	va, okA := viewOf(a, la)
	vb, okB := viewOf(b, lb)
	if !okA || !okB || !va.symbolic && !vb.symbolic {
		return 0
	}
	va.fix(len(a))
	vb.fix(len(b))
	acc := mk(Node{Op: OpEq, K: KBool, K2: KInt, A: va.length, B: vb.length})
	for i := 0; i < min(len(va.elems), len(vb.elems)); i++ {
		eq := mk(Node{Op: OpEq, K: KBool, K2: k, A: va.elems[i], B: vb.elems[i]})
		acc = mk(Node{Op: OpLAnd, K: KBool, A: acc, B: mk(Node{Op: OpIte, K: KBool, A: va.inRange(i), B: eq, C: constant(KBool, 1)})})
	}
	return acc
}

// SlicesClone is slices.Clone.
func SlicesClone[S ~[]E, E any](s S) S {
	r := slices.Clone(s)
	if on.Load() && Enter(idSlicesClone, 1) {
		ls := In(0, uint64(len(s)))
		if len(s) > 0 {
			size := unsafe.Sizeof(*new(E))
			CopyElems(uintptr(unsafe.Pointer(unsafe.SliceData(r))), uintptr(unsafe.Pointer(unsafe.SliceData(s))), len(s), size)
		}
		Ret(idSlicesClone, Arg{S: ls, F: uint64(len(r))})
	}
	return r
}

// SlicesDelete is slices.Delete: the bounds i <= j <= len(s) are implicit
// branches (the original panics otherwise), symbolic i and j are chosen
// (Pick: which elements move depends on them), and the shadows of the
// elements after j move down with them.
func SlicesDelete[S ~[]E, E any](s S, i, j int) S {
	if !on.Load() || !Enter(idSlicesDelete, 3) {
		return slices.Delete(s, i, j)
	}
	ls, is, js := In(0, uint64(len(s))), In(1, uint64(i)), In(2, uint64(j))
	SliceBounds(0, is, uint64(i), js, uint64(j), ls, uint64(len(s)))
	if is != 0 && uint64(i) <= uint64(j) {
		choose(0, KInt, is, uint64(i))
	}
	if js != 0 && uint64(i) <= uint64(j) && j <= len(s) {
		choose(0, KInt, js, uint64(j))
	}
	n := len(s)
	r := slices.Delete(s, i, j)
	if size := unsafe.Sizeof(*new(E)); j > i && size > 0 {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
		CopyElems(base+uintptr(i)*size, base+uintptr(j)*size, n-j, size)
		forget(base+uintptr(len(r))*size, uintptr(j-i)*size)
	}
	Ret(idSlicesDelete, Arg{S: LenDiff(ls, uint64(n), LenDiff(js, uint64(j), is, uint64(i)), uint64(j-i)), F: uint64(len(r))})
	return r
}
