package rt

// Call announces the argument shadows of the next call, whose callee has
// function id fn (0 when the callee is not known statically). Arguments
// that carry no shadow are passed as Arg{}.
func Call(fn uint32, args ...Arg) {
	if !on.Load() {
		return
	}
	f := &cur.pending
	untaken(f)
	// The results of the last call are gone: a callee that leaves none
	// (uninstrumented code behind a func value) must not hand the caller
	// those of an earlier call.
	cur.ret.valid = false
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
		untaken(p)
		cur.entered.valid = false
		return false
	}
	cur.entered = *p
	p.valid = false
	return true
}

// EnterMethod is Enter for a method with n parameters, the receiver
// first. A method value (f := x.M; f(a)) is called like a func value: the
// caller announces the arguments without the receiver, which the method
// value bound earlier. The arguments are then shifted into place and the
// receiver has no shadow (the instrumenter records a concretization where
// the method value copies a receiver that had one).
func EnterMethod(fn uint32, n int) bool {
	p := &cur.pending
	if on.Load() && p.valid && p.fn == 0 && p.n == n-1 && n <= maxArgs {
		copy(p.args[1:n], p.args[:n-1])
		p.args[0] = Arg{}
		p.n = n
	}
	return Enter(fn, n)
}

// untaken closes the announced frame p. If no instrumented prologue took
// it although it carried shadows, the callee was code that dowse does not
// follow (a func value bound to an uninstrumented function, a function
// whose prologue does not match the call): the arguments went on as
// concrete values, which is recorded.
func untaken(p *frame) {
	if !p.valid {
		return
	}
	p.valid = false
	for _, a := range p.args[:p.n] {
		if a.S != 0 && a.S != Agg {
			Conc(0, "arguments of a call that no instrumented function took")
			return
		}
		if a.S == Agg && cellsIn(uintptr(a.F), a.N) {
			Conc(0, "arguments of a call that no instrumented function took")
			return
		}
	}
}

// InLost records a concretization at site when parameter i, whose type is
// a type parameter of generic code, was announced with a shadow (or, for
// an aggregate of size bytes, with symbolic cells): generic code keeps no
// shadows of such values.
func InLost(site uint32, i int, size uintptr) {
	e := &cur.entered
	if !e.valid || i >= e.n || !on.Load() {
		return
	}
	switch a := e.args[i]; {
	case a.S == Agg:
		if cellsIn(uintptr(a.F), size) {
			Conc(site, "generic parameter")
		}
	case a.S != 0:
		Conc(site, "generic parameter")
	}
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
	if e.args[i].N != 0 && e.args[i].N != size {
		// A value of another size: the receiver of a method promoted
		// from an embedded field, called through an interface holding
		// the outer struct (BoxArg), whose cells are not the field's.
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

// ResAggLost records a concretization at site if result i of the last
// call (fn), an aggregate of size bytes, has cells: it went where dowse
// keeps none (a map element).
func ResAggLost(fn uint32, i int, size uintptr, site uint32) {
	r := &cur.ret
	if !r.valid || fn != 0 && r.fn != fn || i >= r.n || r.args[i].S != Agg || !on.Load() {
		return
	}
	if cellsIn(uintptr(r.args[i].F), size) {
		Conc(site, "stored in a map")
	}
}
