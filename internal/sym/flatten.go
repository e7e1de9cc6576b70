package sym

import "github.com/dowse-go/dowse/rt"

// Flatten writes terms as an expression arena, the inverse of Decode:
// nodes[0] is unused, operands come before the nodes that use them, and a
// subterm shared by several terms is written once. roots[i] is the index
// of es[i].
func Flatten(es []*Expr) (nodes []rt.Node, roots []rt.S) {
	nodes = []rt.Node{{}}
	index := map[*Expr]rt.S{}
	var visit func(e *Expr) rt.S
	visit = func(e *Expr) rt.S {
		if s, ok := index[e]; ok {
			return s
		}
		n := rt.Node{Op: e.op, K: e.k, K2: e.k2, Val: e.bits, Str: e.str}
		if arity(e.op) < 0 {
			for _, a := range e.args {
				n.List = append(n.List, visit(a))
			}
		} else {
			refs := []*rt.S{&n.A, &n.B, &n.C}
			for i, a := range e.args {
				*refs[i] = visit(a)
			}
		}
		nodes = append(nodes, n)
		s := rt.S(len(nodes) - 1)
		index[e] = s
		return s
	}
	for _, e := range es {
		roots = append(roots, visit(e))
	}
	return nodes, roots
}
