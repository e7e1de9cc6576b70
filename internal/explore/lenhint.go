package explore

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// maxRelaxed is the largest length bound the bound check searches.
const maxRelaxed = 1024

// relaxedMax is the length bound checkBounds tries instead of max.
func relaxedMax(n int) int { return min(max(4*n, n+32), maxRelaxed) }

// lengthHint is the longest length the conditions name, at most
// maxRelaxed: the length of a string constant or of a list of bytes (a
// string or byte slice compared whole with a constant, a prefix looked
// for), and a constant compared with a length (len(s) == 50), plus one.
// A branch that only inputs that long reach is beyond relaxedMax of a
// short bound: a comparison with a 43-byte constant was once left out of
// the bound check at -max-len 10 (its relaxed bound 42), and the target
// called exhaustive with nothing listed.
func lengthHint(conds []*sym.Expr, leaves []rt.Leaf) int {
	hint := 0
	seen := map[uint64]bool{}
	isLen := func(e *sym.Expr) bool {
		if e.Op() == rt.OpLen {
			return true
		}
		if e.Op() == rt.OpInput {
			i := e.Input()
			return i < len(leaves) && leaves[i].IsLen
		}
		return false
	}
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e.ID()] {
			return
		}
		seen[e.ID()] = true
		switch e.Op() {
		case rt.OpStr:
			hint = max(hint, len(e.Str()))
		case rt.OpFromList:
			hint = max(hint, e.NumArgs())
		case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
			a, b := e.Arg(0), e.Arg(1)
			if a.IsConst() {
				a, b = b, a
			}
			if b.IsConst() && mentionsLen(a, isLen) {
				if v := b.Signed(); v >= 0 && v < maxRelaxed {
					hint = max(hint, int(v)+1)
				}
			}
		}
		for i := 0; i < e.NumArgs(); i++ {
			walk(e.Arg(i))
		}
	}
	for _, c := range conds {
		walk(c)
	}
	return min(hint, maxRelaxed)
}

// mentionsLen reports whether e is a length or arithmetic on one
// (len(s)-1, a conversion of a length).
func mentionsLen(e *sym.Expr, isLen func(*sym.Expr) bool) bool {
	for depth := 0; depth < 4; depth++ {
		if isLen(e) {
			return true
		}
		switch e.Op() {
		case rt.OpAdd, rt.OpSub, rt.OpConv:
			if e.NumArgs() == 2 && e.Arg(0).IsConst() {
				e = e.Arg(1)
			} else {
				e = e.Arg(0)
			}
		default:
			return false
		}
	}
	return false
}
