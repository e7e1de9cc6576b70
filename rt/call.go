package rt

// Call announces the argument shadows of the next call, whose callee has
// function id fn (0 when the callee is not known statically). Arguments
// that carry no shadow are passed as Arg{}.
func Call(fn uint32, args ...Arg) {
	if !on.Load() {
		return
	}
	f := &cur.pending
	f.fn = fn
	f.n = copy(f.args[:], args)
	f.valid = len(args) <= maxArgs
}

// Enter is the prologue of an instrumented function with id fn and n
// parameters (the receiver first): it takes the argument shadows announced
// for this call, if any, and reports whether there were any. In and InAgg
// then read them.
func Enter(fn uint32, n int) bool {
	if !on.Load() {
		return false
	}
	p := &cur.pending
	if !p.valid || p.n != n || p.fn != 0 && p.fn != fn {
		p.valid = false
		cur.entered.valid = false
		return false
	}
	cur.entered = *p
	p.valid = false
	return true
}

// In returns the shadow of parameter i whose value has fingerprint fp.
func In(i int, fp uint64) S {
	e := &cur.entered
	if !e.valid || i >= e.n || e.args[i].S == Agg || e.args[i].F != fp || !on.Load() {
		return 0
	}
	return e.args[i].S
}

// InAgg copies the shadows of aggregate parameter i to its address dst.
func InAgg(i int, dst, size uintptr) {
	e := &cur.entered
	if !e.valid || i >= e.n || e.args[i].S != Agg || !on.Load() {
		return
	}
	Copy(dst, uintptr(e.args[i].F), size)
}

// Ret leaves the result shadows of function fn right before it returns.
func Ret(fn uint32, results ...Arg) {
	if !on.Load() {
		return
	}
	r := &cur.ret
	r.fn = fn
	r.n = copy(r.args[:], results)
	r.valid = len(results) <= maxArgs
}

// Res returns the shadow of result i of the call of fn that just returned,
// whose value has fingerprint fp. fn is 0 for a call whose callee is not
// known statically.
func Res(fn uint32, i int, fp uint64) S {
	r := &cur.ret
	if !r.valid || fn != 0 && r.fn != fn || i >= r.n || r.args[i].S == Agg || r.args[i].F != fp || !on.Load() {
		return 0
	}
	return r.args[i].S
}

// ResAgg copies the shadows of aggregate result i of the call of fn that
// just returned to dst.
func ResAgg(fn uint32, i int, dst, size uintptr) {
	r := &cur.ret
	if !r.valid || fn != 0 && r.fn != fn || i >= r.n || r.args[i].S != Agg || !on.Load() {
		return
	}
	Copy(dst, uintptr(r.args[i].F), size)
}
