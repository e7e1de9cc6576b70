package rt

import (
	"runtime"
	"unsafe"
)

// Br records the outcome c of the branch at site, whose symbolic condition
// is s, and returns c.
func Br(site uint32, c bool, s S) bool {
	if on.Load() {
		record(Event{Site: site, Taken: c, Cond: s})
	}
	return c
}

// Imp records an implicit branch (a bounds check, a division by zero, ...)
// at site: c is true when the operation will succeed.
func Imp(site uint32, c bool, s S) {
	if on.Load() && s != 0 {
		record(Event{Site: site, Taken: c, Cond: s, Implicit: true})
	}
}

func record(e Event) {
	if !lock() {
		return
	}
	if cur.maxEvents > 0 && len(cur.events) >= cur.maxEvents {
		unlock()
		// The branch bound: stop the run (loop unfolding bound), and say
		// whether recursion got it there.
		cur.recursion, cur.recursionDepth = recursion()
		stopRun()
	}
	cur.events = append(cur.events, e)
	if traceAll {
		trimTrace()
	}
	unlock()
}

// stopRun stops the run at a bound (branches, allocation): its test stops
// the way t.FailNow stops it, which the testing package expects of a test
// goroutine that exits early.
func stopRun() {
	cur.truncated = true
	on.Store(false)
	if cur.t != nil {
		cur.t.FailNow()
	}
	runtime.Goexit()
}

// Bin is the shadow of the integer operation a op b of kind k (arithmetic
// and bitwise operators except shifts); av and bv are the operands' bits.
func Bin(op Op, k Kind, a S, av uint64, b S, bv uint64) S {
	return binary(op, k, 0, k, a, av, b, bv)
}

// binary is the node op(a, b) of result kind k (and operand kind k2 when
// k2d is set), with operands of kind ko; a concrete operand (shadow 0)
// becomes a constant of its bits. No node when both are concrete.
func binary(op Op, k, k2d, ko Kind, a S, av uint64, b S, bv uint64) S {
	if a == 0 && b == 0 || !on.Load() {
		return 0
	}
	if a == 0 {
		a = constant(ko, av)
	}
	if b == 0 {
		b = constant(ko, bv)
	}
	return mk(Node{Op: op, K: k, K2: k2d, A: a, B: b})
}

// Quo is the shadow of a / b or a % b (op OpQuo or OpRem) of kind k; it
// records the implicit branch b != 0 at site.
func Quo(site uint32, op Op, k Kind, a S, av uint64, b S, bv uint64) S {
	if !on.Load() || a == 0 && b == 0 {
		return 0
	}
	if b != 0 {
		Imp(site, mask(k, bv) != 0, mk(Node{Op: OpNe, K: KBool, K2: k, A: b, B: constant(k, 0)}))
	}
	return Bin(op, k, a, av, b, bv)
}

// Shift is the shadow of a << b or a >> b (op OpShl or OpShr) where a has
// kind k and the count b kind kb; for a signed count it records the
// implicit branch b >= 0 at site.
func Shift(site uint32, op Op, k Kind, a S, av uint64, kb Kind, b S, bv uint64) S {
	if !on.Load() || a == 0 && b == 0 {
		return 0
	}
	if b != 0 && kb.Signed() {
		neg := int64(bv) < 0
		Imp(site, !neg, mk(Node{Op: OpGe, K: KBool, K2: kb, A: b, B: constant(kb, 0)}))
	}
	if a == 0 {
		a = constant(k, av)
	}
	if b == 0 {
		b = constant(kb, bv)
	}
	return mk(Node{Op: op, K: k, K2: kb, A: a, B: b})
}

// Cmp is the shadow of the comparison a op b of operands of kind k.
func Cmp(op Op, k Kind, a S, av uint64, b S, bv uint64) S {
	return binary(op, KBool, k, k, a, av, b, bv)
}

// Un is the shadow of a unary operation (OpNeg, OpCpl, OpNot) of kind k.
func Un(op Op, k Kind, a S) S {
	if a == 0 || !on.Load() {
		return 0
	}
	return mk(Node{Op: op, K: k, A: a})
}

// Logic is the shadow of a && b or a || b (op OpLAnd or OpLOr) where both
// operands were evaluated.
func Logic(op Op, a S, av bool, b S, bv bool) S {
	return Bin(op, KBool, a, B(av), b, B(bv))
}

// Conv is the shadow of the conversion of a from kind from to kind to.
func Conv(to, from Kind, a S) S {
	if a == 0 || !on.Load() || to == from {
		return a
	}
	return mk(Node{Op: OpConv, K: to, K2: from, A: a})
}

func signExtend(k Kind, v uint64) uint64 {
	switch k.Bits() {
	case 8:
		return uint64(int64(int8(v)))
	case 16:
		return uint64(int64(int16(v)))
	case 32:
		return uint64(int64(int32(v)))
	}
	return v
}

// Bounds records the implicit branch 0 <= i < n of an index operation at
// site, where i has kind ki and value iv = uint64(i), and n is a length
// (kind KInt).
func Bounds(site uint32, ki Kind, i S, iv uint64, n S, nv uint64) {
	if !on.Load() || i == 0 && n == 0 {
		return
	}
	cond := Cmp(OpLt, KUint64, Conv(KUint64, ki, i), iv, Conv(KUint64, KInt, n), nv)
	Imp(site, iv < nv, cond)
}

// Index records the bounds check of an element access x[i] of a slice or
// array at site, and chooses i's value (see Pick).
func Index(site uint32, ki Kind, i S, iv uint64, n S, nv uint64) {
	Pick(site, ki, i, iv, n, nv)
}

// MaxPick bounds the index values Pick enumerates: a symbolic index whose
// value is larger is pinned to it and the run records a concretization.
const MaxPick = 64

// Pick records the bounds check of an access x[i] at site whose element
// dowse does not select symbolically (a pointer, a struct, a string, a
// store), and chooses i's value for the rest of the run: the implicit
// branches i == 0, i == 1, ..., i == iv, all false but the last. The
// search negates each of them like any branch, so every value of i in
// range is tried, one run each, and no concretization is needed: the
// memory the access reaches is exact for the run's path condition.
// Within a run an index expression is chosen once (later accesses with
// the same shadow add nothing). Values above MaxPick are pinned (i == iv)
// with a concretization.
func Pick(site uint32, ki Kind, i S, iv uint64, n S, nv uint64) {
	if !on.Load() || i == 0 && n == 0 {
		return
	}
	Bounds(site, ki, i, iv, n, nv)
	if i != 0 && iv < nv {
		choose(site, ki, i, iv)
	}
}

// choose is Pick after the bounds check.
func choose(site uint32, ki Kind, i S, iv uint64) {
	if !lock() {
		return
	}
	v, done := cur.picked[i]
	unlock()
	if done && v == iv {
		return
	}
	if !done && determined(i) {
		// i is computed from indexes already chosen (off+1 after
		// off): the path condition fixes its value.
		return
	}
	if iv > MaxPick {
		pin(site, ki, i, iv)
	} else {
		for k := uint64(0); k < iv; k++ {
			Imp(site, false, mk(Node{Op: OpEq, K: KBool, K2: ki, A: i, B: constant(ki, k)}))
		}
		Imp(site, true, mk(Node{Op: OpEq, K: KBool, K2: ki, A: i, B: constant(ki, iv)}))
	}
	if lock() {
		if cur.picked == nil {
			cur.picked = make(map[S]uint64)
		}
		cur.picked[i] = iv
		unlock()
	}
}

// maxDeterminedWalk bounds the nodes determined looks at.
const maxDeterminedWalk = 64

// determined reports whether the value of integer expression i is fixed
// by the run's choices: i is built by arithmetic and conversions from
// constants and indexes the run chose (Pick), as off+1 or off+2 are after
// off was chosen. The walk is bounded (an expression too large to look at
// is not determined) and does not recurse.
func determined(i S) bool {
	if !lock() {
		return false
	}
	defer unlock()
	stack := []S{i}
	for seen := 0; len(stack) > 0; seen++ {
		if seen >= maxDeterminedWalk {
			return false
		}
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := cur.picked[s]; ok {
			continue
		}
		if int(s) >= len(cur.nodes) {
			return false
		}
		n := &cur.nodes[s]
		switch {
		case n.Op == OpConst:
		case n.Op == OpConv || n.Op == OpNeg || n.Op == OpCpl:
			stack = append(stack, n.A)
		case n.Op >= OpAdd && n.Op <= OpShr:
			stack = append(stack, n.A, n.B)
		default:
			return false
		}
	}
	return true
}

// PickI is Pick in an index expression: x[rt.PickI(...)] records the
// bounds check and the choice, then indexes with i.
func PickI[T integer](site uint32, ki Kind, i S, iv T, n S, nv int) T {
	Pick(site, ki, i, uint64(iv), n, uint64(nv))
	return iv
}

// picked reports whether Pick chose symbolic index i in this run.
func picked(i S) bool {
	if !lock() {
		return false
	}
	_, ok := cur.picked[i]
	unlock()
	return ok
}

// pin records that symbolic value s of kind k was used as its concrete
// value v: an implicit branch s == v, which the search may flip.
func pin(site uint32, k Kind, s S, v uint64) {
	Imp(site, true, mk(Node{Op: OpEq, K: KBool, K2: k, A: s, B: constant(k, v)}))
	Conc(site, "symbolic index or length")
}

// SliceBounds records the implicit branches of a slice expression
// x[lo:hi:max] at site: 0 <= lo <= hi <= max <= c, with c the capacity (or
// length for strings). Absent bounds are passed with their defaults.
func SliceBounds(site uint32, lo S, lov uint64, hi S, hiv uint64, c S, cv uint64) {
	if !on.Load() || lo == 0 && hi == 0 && c == 0 {
		return
	}
	if lo != 0 || hi != 0 {
		Imp(site, lov <= hiv, Cmp(OpLe, KUint64, Conv(KUint64, KInt, lo), lov, Conv(KUint64, KInt, hi), hiv))
	}
	if hi != 0 || c != 0 {
		Imp(site, hiv <= cv, Cmp(OpLe, KUint64, Conv(KUint64, KInt, hi), hiv, Conv(KUint64, KInt, c), cv))
	}
}

// LenDiff is the shadow of hi - lo for slice lengths (kind KInt).
func LenDiff(hi S, hiv uint64, lo S, lov uint64) S {
	return Bin(OpSub, KInt, hi, hiv, lo, lov)
}

// Pin makes a symbolic integer or bool value concrete where dowse does not
// model its use: v is the value's bits (its fingerprint). Strings have no
// bits to pin to (their fingerprints say where they are, not what they
// hold); a model that pins one builds the string constant itself.
func Pin(site uint32, k Kind, s S, v uint64, why string) {
	if on.Load() && s != 0 {
		Imp(site, true, mk(Node{Op: OpEq, K: KBool, K2: k, A: s, B: constant(k, v)}))
		Conc(site, why)
	}
}

// Const is the shadow of a constant (normally 0: constants are concrete;
// used where a shadow must exist, e.g. a symbolic length added to one).
func Const(k Kind, v uint64) S {
	if !on.Load() {
		return 0
	}
	return constant(k, v)
}

// SliceLen records the bounds of x[lo:hi] at site and returns the shadow of
// the new length hi-lo; cv is the capacity of x, and ls, lv the shadow and
// value of its length. Capacities have no shadows: where the capacity
// equals the length (as for every slice input, and most slices made from
// one), the length's shadow stands for it; a constant capacity would
// carry this run's length into the conditions of runs with other lengths
// (s[:len(s)-1] would then forbid longer inputs, a path lost and a
// divergence). Where they differ, the capacity is concrete.
func SliceLen(site uint32, lo S, lov uint64, hi S, hiv uint64, cv uint64, ls S, lv uint64) S {
	if !on.Load() || lo == 0 && hi == 0 {
		return 0
	}
	var c S
	if cv == lv {
		c = ls
	}
	SliceBounds(site, lo, lov, hi, hiv, c, cv)
	return LenDiff(hi, hiv, lo, lov)
}

// MakeLen is the shadow of the length of make([]T, n) for n of kind k: it
// records the implicit branch n >= 0 at site (a negative length panics)
// and returns n as an int.
//
// It also bounds what an input can make the program allocate: the
// branch n <= MaxAlloc is recorded too, and a run that would allocate more
// elements is stopped before it does (StatusBound, Result.AllocBound): an
// input that asks for 2^41 buckets would otherwise end the worker with an
// out-of-memory error that no recover can catch.
func MakeLen(site uint32, k Kind, n S, nv uint64) S {
	if n == 0 || !on.Load() {
		return 0
	}
	if k.Signed() {
		Imp(site, int64(nv) >= 0, Cmp(OpGe, k, n, nv, 0, 0))
		if int64(nv) < 0 {
			return Conv(KInt, k, n)
		}
	}
	within := nv <= MaxAlloc
	Imp(site, within, Cmp(OpLe, k, n, nv, 0, MaxAlloc))
	if !within && lock() {
		cur.allocBound = true
		unlock()
		stopRun()
	}
	return Conv(KInt, k, n)
}

// MaxAlloc bounds the length of a make with a symbolic length (see
// MakeLen), in elements: beyond what unit-test inputs need, and small
// enough that runs stay fast (a constructor asked for a million buckets
// spends its run clearing them).
const MaxAlloc = 1 << 16

// StoreIndex records the bounds check of a store x[i] = v at site whose
// index i may be symbolic, and chooses i's value (see Pick): where the
// value lands depends on i.
func StoreIndex(site uint32, ki Kind, i S, iv uint64, n S, nv uint64) {
	Pick(site, ki, i, iv, n, nv)
}

// integer is the set of types an index can have.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// CopyCount records, for copy(dst, src) at site, whether src is the
// shorter (the lengths' shadows dn and sn, their values dv and sv): the
// elements of dst past len(src) keep what they held, so the path must say
// which ones those are. When src is shorter its length is chosen like an
// index (every length in range gets its run); when dst is the shorter,
// all of dst is overwritten and nothing more is needed (a clone,
// copy(make([]T, len(s)), s), adds no branch).
func CopyCount(site uint32, dn S, dv uint64, sn S, sv uint64) {
	if !on.Load() || dn == 0 && sn == 0 {
		return
	}
	short := sv < dv
	Imp(site, short, Cmp(OpLt, KInt, sn, sv, dn, dv))
	if short && sn != 0 {
		choose(site, KInt, sn, sv)
	}
}

// Part is one comparable part of a struct or array compared with == (see
// EqParts): the shadow of its equality, 0 when both sides are concrete,
// and whether it is equal in this run.
type Part struct {
	S  S
	Eq bool
}

// EqParts is the shadow of a == b for structs or arrays, compared part by
// part: 0 when a concrete part differs (the result is false whatever the
// input), else the conjunction of the symbolic parts' equalities.
func EqParts(parts ...Part) S {
	if !on.Load() {
		return 0
	}
	var s S
	for _, p := range parts {
		if p.S == 0 {
			if !p.Eq {
				return 0
			}
			continue
		}
		s = and(s, p.S)
	}
	return s
}

// EqLost is the shadow of a == b for structs or arrays of size bytes at a
// and b that dowse does not compare part by part (too many parts, fields
// it cannot name): 0, with a concretization at site when either has cells.
func EqLost(site uint32, a, b unsafe.Pointer, size uintptr) S {
	if on.Load() && (cellsIn(uintptr(a), size) || cellsIn(uintptr(b), size)) {
		Conc(site, "structs or arrays compared as a whole")
	}
	return 0
}
