package rt

import "unsafe"

// Sh is the companion of a local variable of a tracked type: the shadow of
// the value the variable held when the companion was set, with that value's
// fingerprint. A companion whose variable has changed since (by code the
// instrumenter did not follow) no longer matches and yields no shadow.
type Sh struct {
	S S
	F uint64
}

// Mk is the companion for a value with fingerprint fp and shadow s.
func Mk(s S, fp uint64) Sh {
	if s == 0 {
		return Sh{}
	}
	return Sh{S: s, F: fp}
}

// At returns the shadow if the variable's value still has fingerprint fp.
func (h Sh) At(fp uint64) S {
	if h.S != 0 && h.F == fp {
		return h.S
	}
	return 0
}

// StSh stores a companion-shaped shadow at addr.
func StSh(addr uintptr, h Sh) { St(addr, h.S, h.F) }

// ArgOf turns a companion into the Arg of a call or return.
func ArgOf(h Sh) Arg { return Arg{S: h.S, F: h.F} }

// Lost records that a symbolic value was stored where dowse does not track
// shadows (a map element, a value converted to an interface, ...).
func Lost(site uint32, s S, why string) {
	if s != 0 {
		Conc(site, why)
	}
}

// LostS is Lost for a value used where dowse keeps no shadow (a map key);
// it returns 0 so that it can stand inside an expression.
func LostS(site uint32, s S, why string) S {
	Lost(site, s, why)
	return 0
}

// LostElems records a concretization at site if any cell in the size bytes
// at p is symbolic: memory handed to code dowse does not follow.
func LostElems(site uint32, p unsafe.Pointer, size uintptr, why string) {
	if on.Load() && cellsIn(uintptr(p), size) {
		Conc(site, why)
	}
}

// cellsIn reports whether any byte of the size bytes at base has a cell.
func cellsIn(base, size uintptr) bool {
	if !on.Load() || size == 0 || !lock() {
		return false
	}
	defer unlock()
	if len(cur.mem) == 0 {
		return false
	}
	if size > 4096 && uintptr(len(cur.mem)) < size {
		for a := range cur.mem {
			if a >= base && a < base+size {
				return true
			}
		}
		return false
	}
	for a := base; a < base+size; a++ {
		if _, ok := cur.mem[a]; ok {
			return true
		}
	}
	return false
}

// LenS, LenStr, CapS and MinInt stand for the builtins in instrumented
// code, whose own names the code under test may shadow.
func LenS[S ~[]E, E any](s S) int { return len(s) }

// LenStr is len for strings.
func LenStr[S ~string](s S) int { return len(s) }

// CapS is cap for slices.
func CapS[S ~[]E, E any](s S) int { return cap(s) }

// MinInt is min for ints.
func MinInt(a, b int) int { return min(a, b) }

// Clause records that the clause at site of a type switch was chosen.
func Clause(site uint32) { Br(site, true, 0) }

// ClearCells drops the cells of the size bytes at p: the builtin clear
// zeroes a slice's elements, whose shadows no longer describe them (a cell
// whose value was already zero would still match its fingerprint).
func ClearCells(p unsafe.Pointer, size uintptr) {
	if !on.Load() || size == 0 {
		return
	}
	forget(uintptr(p), size)
}

// forget drops the cells of the size bytes at base (memory the code
// cleared).
func forget(base, size uintptr) {
	if !lock() {
		return
	}
	defer unlock()
	if len(cur.mem) == 0 {
		return
	}
	if size > 4096 && uintptr(len(cur.mem)) < size {
		for a := range cur.mem {
			if a >= base && a < base+size {
				delete(cur.mem, a)
			}
		}
		return
	}
	for a := base; a < base+size; a++ {
		delete(cur.mem, a)
	}
}
