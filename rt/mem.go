package rt

import (
	"sync/atomic"
	"unsafe"
)

// St records that the value at addr, whose fingerprint is fp, has shadow s.
func St(addr uintptr, s S, fp uint64) {
	if !on.Load() {
		return
	}
	if !lock() {
		return
	}
	if s == 0 {
		if len(cur.mem) > 0 {
			delete(cur.mem, addr)
		}
	} else {
		cur.mem[addr] = cell{s: s, fp: fp}
	}
	unlock()
}

// Ld returns the shadow of the value at addr whose fingerprint is fp.
func Ld(addr uintptr, fp uint64) S {
	if !on.Load() || !lock() {
		return 0
	}
	c, ok := cur.mem[addr]
	unlock()
	if !ok || c.fp != fp {
		return 0
	}
	return c.s
}

// Copy copies the shadows of the size bytes at src to dst (an aggregate
// assignment).
func Copy(dst, src, size uintptr) {
	if !on.Load() || dst == src || !lock() {
		return
	}
	defer unlock()
	if len(cur.mem) == 0 {
		return
	}
	if size > 1<<12 && uintptr(len(cur.mem)) < size {
		// Sparse: walk the cells instead of the bytes.
		var moved []uintptr
		for a := range cur.mem {
			if a >= src && a < src+size {
				moved = append(moved, a)
			}
		}
		for a := dst; a < dst+size; a++ {
			delete(cur.mem, a)
		}
		for _, a := range moved {
			cur.mem[dst+(a-src)] = cur.mem[a]
		}
		return
	}
	if dst > src && dst < src+size {
		for off := size; off > 0; off-- {
			copyCell(dst+off-1, src+off-1)
		}
		return
	}
	for off := uintptr(0); off < size; off++ {
		copyCell(dst+off, src+off)
	}
}

func copyCell(dst, src uintptr) {
	if c, ok := cur.mem[src]; ok {
		cur.mem[dst] = c
	} else {
		delete(cur.mem, dst)
	}
}

// CopyElems copies the shadows of n elements of size bytes each from src
// to dst (copy, append).
func CopyElems(dst, src uintptr, n int, size uintptr) {
	if n > 0 {
		Copy(dst, src, uintptr(n)*size)
	}
}

// LdIdx returns the shadow of the element at addr (fingerprint fp) of an
// index expression whose bounds check was recorded by ok (see Index).
func LdIdx(ok bool, addr uintptr, fp uint64) S {
	return Ld(addr, fp)
}

// BoundsFirst records the bounds check of x[i] (Bounds) and returns true,
// so that it can stand first in LdSym's arguments.
func BoundsFirst(site uint32, ki Kind, i S, iv uint64, n S, nv uint64) bool {
	if on.Load() && (i != 0 || n != 0) {
		Bounds(site, ki, i, iv, n, nv)
	}
	return true
}

// Idx records the bounds check of x[i] like Index and returns true, so
// that it can stand first in LdIdx's arguments.
func Idx(site uint32, ki Kind, i S, iv uint64, n S, nv uint64) bool {
	Index(site, ki, i, iv, n, nv)
	return true
}

// escapeSink and escapeNever make Escape's argument escape: the compiler
// cannot prove the store never happens.
var (
	escapeSink  atomic.Value
	escapeNever bool
)

// Escape makes the variable p points to live on the heap. The instrumenter
// calls it for local arrays and structs whose elements carry shadows in
// memory cells: cells are keyed by address, and a variable on a goroutine
// stack moves when the stack grows. Heap objects do not move.
func Escape(p any) {
	if escapeNever {
		escapeSink.Store(p)
	}
}

// growStack makes the calling goroutine's stack large, so that the runs on
// it rarely grow (and so move) it.
//
//go:noinline
func growStack(n int) byte {
	var pad [16 << 10]byte
	if n > 0 {
		pad[n%len(pad)] = byte(n) + growStack(n-1)
	}
	return pad[0]
}

// maxIteElems bounds the elements a symbolic index selects among.
const maxIteElems = 64

// LdSym is the shadow of element x[i] of a slice or array at site whose
// index i (kind ki, value iv) may be symbolic: nv is the length's value,
// base the address of x[0], size the element size, ke the element kind
// (KInvalid for non-integer elements), addr and fp the address and
// fingerprint of x[i]. ok is the result of BoundsFirst, which stands first
// in the arguments so that the bounds check is recorded before addr and
// fp are evaluated (evaluating them panics when i is out of range: a
// check recorded after that would never be, and the search could not
// find the inputs in range). A symbolic index into integer elements
// selects among them (an if-then-else over the elements); otherwise, or
// where the index was already chosen, the run chooses its value (Pick).
func LdSym(ok bool, site uint32, ki Kind, i S, iv uint64, nv uint64, base unsafe.Pointer, size uintptr, ke Kind, addr uintptr, fp uint64) S {
	if !on.Load() {
		return 0
	}
	if i == 0 {
		return Ld(addr, fp)
	}
	if iv >= nv {
		return 0 // the access panics
	}
	if ke.Integer() && size != 0 && nv > maxIteElems && !picked(i) {
		if _, isInput := cur.slices[uintptr(base)]; !isInput {
			if t := table(ki, i, nv, base, size, ke); t != 0 {
				return t
			}
		}
	}
	if ke.Bits() == 0 || size == 0 || picked(i) || determined(i) {
		choose(site, ki, i, iv)
		return Ld(addr, fp)
	}
	depth := selectDepth(i)
	if depth >= maxSelectDepth {
		// The index was read at a symbolic index itself (a length
		// prefix or an offset read from the input, as parsers of
		// binary formats chain them): a selection among selections
		// grows with each step and soon takes the solver seconds
		// (nested multiplexers of bit-vectors). The run chooses the
		// index's value instead, exactly (Pick).
		choose(site, ki, i, iv)
		return Ld(addr, fp)
	}
	// An input slice (or a slice of one that starts where it starts):
	// beyond the elements this run has, those a longer input would have
	// are its leaves, so the selection holds for every length the bounds
	// check (against the length's shadow) admits.
	in, isInput := cur.slices[uintptr(base)]
	count, inMemory := nv, nv // elements selected among; those in memory
	if isInput {
		// The input's own elements are in memory even where x is a
		// shorter slice of it; the rest are leaves.
		count, inMemory = max(nv, uint64(len(in.elems))), max(nv, uint64(in.n))
	}
	lo, hi := uint64(0), count // the elements selected among
	if count > maxIteElems {
		if iv >= maxWindows*maxIteElems {
			choose(site, ki, i, iv)
			return Ld(addr, fp)
		}
		lo, hi = window(site, ki, i, iv, count)
	}
	elem := func(k uint64) S {
		if k >= inMemory {
			return in.elems[k]
		}
		return elemShadow(unsafe.Add(base, uintptr(k)*size), ke)
	}
	// ite(i == hi-1, x[hi-1], ite(..., x[lo]))
	acc := elem(lo)
	for k := lo + 1; k < hi; k++ {
		e := elem(k)
		if acc == 0 || e == 0 {
			return 0
		}
		c := Cmp(OpEq, ki, i, iv, 0, k)
		acc = mk(Node{Op: OpIte, K: ke, A: c, B: e, C: acc})
	}
	setSelectDepth(acc, depth+1)
	return acc
}

// maxWindows bounds the windows of maxIteElems elements a selection may
// choose among (see window): an index beyond them is chosen.
const maxWindows = 64

// window chooses, for a selection by index i (kind ki, value iv) among
// count elements, more than maxIteElems, the window of maxIteElems
// elements that holds element iv, [lo, hi), aligned on a multiple of
// maxIteElems: the implicit branches i < maxIteElems, i < 2*maxIteElems,
// ..., all false but the last (none where the window is the last), as
// Pick chooses a value. The search negates each, so every window gets its
// runs, and within one the selection is exact: long inputs (a fuzz
// target's seeds, a message of hundreds of bytes) are read at symbolic
// offsets without a choice per offset or a concretization. A window is
// chosen once per run for an index expression.
func window(site uint32, ki Kind, i S, iv, count uint64) (lo, hi uint64) {
	lo = iv / maxIteElems * maxIteElems
	hi = min(lo+maxIteElems, count)
	if !lock() {
		return lo, hi
	}
	if cur.windows == nil {
		cur.windows = make(map[S]uint64)
	}
	prev, done := cur.windows[i]
	cur.windows[i] = lo
	unlock()
	if done && prev == lo {
		return lo, hi
	}
	u := Conv(KUint64, ki, i)
	for w := uint64(maxIteElems); w <= lo; w += maxIteElems {
		Imp(site, false, Cmp(OpLt, KUint64, u, iv, 0, w))
	}
	if hi < count {
		Imp(site, true, Cmp(OpLt, KUint64, u, iv, 0, hi))
	}
	return lo, hi
}

// maxSelectDepth bounds the nesting of the selections LdSym builds: an
// index whose expression holds that many nested selections is chosen
// (Pick) instead of selected over. At 1, a value read at a symbolic index
// can be compared and computed with, but an index computed from it is
// chosen: one run per value, each query free of nested selections.
const maxSelectDepth = 1

// selectDepth is the nesting of LdSym's selections in expression s: 0 if
// it has none, else one more than the largest nesting in the index of a
// selection it holds. It walks s's nodes once per run (memoized), without
// recursion: the run's goroutine stack must not grow (see growStack).
func selectDepth(s S) uint8 {
	if s == 0 || !lock() {
		return 0
	}
	defer unlock()
	if d, ok := cur.depths[s]; ok {
		return d
	}
	if cur.depths == nil {
		cur.depths = make(map[S]uint8)
	}
	stack := []S{s}
	var d uint8      // the deepest nesting among the node's operands
	waiting := false // an operand's nesting is not known yet
	visit := func(c S) {
		if c == 0 {
			return
		}
		if cd, ok := cur.depths[c]; ok {
			d = max(d, cd)
		} else {
			stack = append(stack, c)
			waiting = true
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		if _, ok := cur.depths[n]; ok {
			stack = stack[:len(stack)-1]
			continue
		}
		if int(n) >= len(cur.nodes) {
			cur.depths[n] = 0 // not a node of this run: no selection
			stack = stack[:len(stack)-1]
			continue
		}
		node := &cur.nodes[n]
		d, waiting = 0, false
		visit(node.A)
		visit(node.B)
		visit(node.C)
		for _, c := range node.List {
			visit(c)
		}
		if !waiting {
			cur.depths[n] = d
			stack = stack[:len(stack)-1]
		}
	}
	return cur.depths[s]
}

// setSelectDepth records that s is a selection of nesting d.
func setSelectDepth(s S, d uint8) {
	if s == 0 || !lock() {
		return
	}
	if cur.depths == nil {
		cur.depths = make(map[S]uint8)
	}
	cur.depths[s] = d
	unlock()
}

// elemShadow is the shadow of the integer element of kind k at addr: its
// cell, or its value as a constant.
func elemShadow(p unsafe.Pointer, k Kind) S {
	bits := readBits(p, k)
	if !lock() {
		return 0
	}
	c, ok := cur.mem[uintptr(p)]
	unlock()
	if ok && c.fp == fingerprintBits(k, bits) {
		return c.s
	}
	return constant(k, bits)
}

// readBits reads the integer or bool of kind k at addr.
func readBits(p unsafe.Pointer, k Kind) uint64 {
	switch k.Bits() {
	case 1, 8:
		return uint64(*(*uint8)(p))
	case 16:
		return uint64(*(*uint16)(p))
	case 32:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// fingerprintBits is the fingerprint (what uint64(x) gives) of a value of
// kind k with the given bits.
func fingerprintBits(k Kind, bits uint64) uint64 {
	if k.Signed() {
		return signExtend(k, bits)
	}
	return bits
}

// Limits of table: the elements it scans and the segments it writes.
const (
	maxTableElems    = 4096
	maxTableSegments = 32
)

// table is the shadow of x[i] for a symbolic index i into nv integer
// elements of kind ke at base, none of which has a shadow (a lookup table
// such as a package-level [256]byte of hexadecimal digit values): the
// elements split into segments of arithmetic progressions (runs of one
// value, or of values that go up or down by a step), and the shadow
// selects the segment by i, ite(i <= end1, c1 + d1*i, ite(i <= end2, ...)),
// exact for every index in range (the bounds check is recorded). It is 0
// (no model) when an element has a shadow, or the table is too long or has
// too many segments.
func table(ki Kind, i S, nv uint64, base unsafe.Pointer, size uintptr, ke Kind) S {
	if nv > maxTableElems {
		return 0
	}
	vals := make([]uint64, nv)
	if !lock() {
		return 0
	}
	for k := range vals {
		p := unsafe.Add(base, uintptr(k)*size)
		if _, ok := cur.mem[uintptr(p)]; ok {
			unlock()
			return 0
		}
		vals[k] = readBits(p, ke)
	}
	unlock()
	// run(s) is the length of the progression that starts at s with the
	// step from s to s+1.
	run := func(s int) (int, uint64) {
		if s+1 >= len(vals) {
			return 1, 0
		}
		d := mask(ke, vals[s+1]-vals[s])
		n := 2
		for s+n < len(vals) && mask(ke, vals[s+n]-vals[s+n-1]) == d {
			n++
		}
		return n, d
	}
	type segment struct {
		end  uint64 // last index
		c, d uint64 // value c + d*i
	}
	var segs []segment
	for s := 0; s < len(vals); {
		n, d := run(s)
		// Two elements that only share a step by chance: the second
		// starts a longer progression of its own.
		if n == 2 && d != 0 {
			if m, _ := run(s + 1); m > 2 {
				n, d = 1, 0
			}
		}
		if len(segs) == maxTableSegments {
			return 0
		}
		segs = append(segs, segment{end: uint64(s + n - 1), c: mask(ke, vals[s]-uint64(s)*d), d: d})
		s += n
	}
	ix := Conv(ke, ki, i)
	ux := Conv(KUint64, ki, i)
	value := func(g segment) S {
		switch g.d {
		case 0:
			return constant(ke, g.c)
		case 1:
			return mk(Node{Op: OpAdd, K: ke, A: constant(ke, g.c), B: ix})
		}
		return mk(Node{Op: OpAdd, K: ke, A: constant(ke, g.c), B: mk(Node{Op: OpMul, K: ke, A: constant(ke, g.d), B: ix})})
	}
	acc := value(segs[len(segs)-1])
	for k := len(segs) - 2; k >= 0; k-- {
		in := mk(Node{Op: OpLe, K: KBool, K2: KUint64, A: ux, B: constant(KUint64, segs[k].end)})
		acc = mk(Node{Op: OpIte, K: ke, A: in, B: value(segs[k]), C: acc})
	}
	return acc
}
