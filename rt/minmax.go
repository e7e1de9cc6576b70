package rt

// The builtins min and max of integers and strings have exact shadows: an
// if-then-else chain that keeps the smallest (largest) operand so far,
// each step the comparison the builtin makes, so a branch on the result
// has a condition over the operands. On ties the operands are equal, so
// which one the chain keeps does not change the value. Floats keep no
// shadows (their inputs and conversions record concretizations).

// MinMax is the shadow of min (max when isMax) of integers of kind k, the
// operands' shadows and values (uint64(x)) in args; 0 when every operand
// is concrete.
func MinMax(isMax bool, k Kind, args ...Arg) S {
	if !on.Load() || !anySym(args) {
		return 0
	}
	ms, mv := args[0].S, args[0].F
	for _, a := range args[1:] {
		var c S
		var take bool
		if isMax {
			c, take = Cmp(OpLt, k, ms, mv, a.S, a.F), lessBits(k, mv, a.F)
		} else {
			c, take = Cmp(OpLt, k, a.S, a.F, ms, mv), lessBits(k, a.F, mv)
		}
		if c != 0 {
			x, y := a.S, ms
			if x == 0 {
				x = constant(k, a.F)
			}
			if y == 0 {
				y = constant(k, mv)
			}
			ms = mk(Node{Op: OpIte, K: k, A: c, B: x, C: y})
		} else if take {
			ms = a.S
		}
		if take {
			mv = a.F
		}
	}
	return ms
}

// MinMaxStr is MinMax for strings: the operands' shadows ss and values vs.
func MinMaxStr(isMax bool, ss []S, vs ...string) S {
	if !on.Load() || len(ss) != len(vs) || len(ss) == 0 {
		return 0
	}
	sym := false
	for _, s := range ss {
		sym = sym || s != 0
	}
	if !sym {
		return 0
	}
	ms, mv := ss[0], vs[0]
	for i := 1; i < len(ss); i++ {
		var c S
		var take bool
		if isMax {
			c, take = StrCmp(OpLt, ms, mv, ss[i], vs[i]), mv < vs[i]
		} else {
			c, take = StrCmp(OpLt, ss[i], vs[i], ms, mv), vs[i] < mv
		}
		if c != 0 {
			ms = mk(Node{Op: OpIte, K: KString, A: c, B: orStr(ss[i], vs[i]), C: orStr(ms, mv)})
		} else if take {
			ms = ss[i]
		}
		if take {
			mv = vs[i]
		}
	}
	return ms
}

// anySym reports whether an argument has a shadow.
func anySym(args []Arg) bool {
	for _, a := range args {
		if a.S != 0 {
			return true
		}
	}
	return false
}

// lessBits reports whether x < y for values of kind k given as uint64(x).
func lessBits(k Kind, x, y uint64) bool {
	if k.Signed() {
		return int64(x) < int64(y)
	}
	return x < y
}
