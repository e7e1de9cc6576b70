package solver

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// A classProgram is a rewritten group (classes_terms.go) compiled for the
// class search: its terms in an array, operands before the terms that
// read them, each with the set of vars it reads. The search assigns and
// unassigns vars one at a time, and only the terms that read the var are
// evaluated again: exactly, with the evaluator's semantics (sym.Apply,
// and the connectives and if-then-else choosing their operand as
// sym.Evaluator does), where every var the term reads is assigned; as an
// interval of the values it can take (applyInterval) elsewhere, the
// unassigned vars ranging over their domains. A constraint whose interval
// is "false" holds for no completion of the assignment.
type classProgram struct {
	nodes  []progNode
	terms  []*sym.Expr // the term of each node
	roots  []int32     // the constraints' terms
	byVar  [][]int32   // the terms reading each var, in order
	only   [][]int32   // the terms reading that var alone, in order
	domain []ival      // each var's domain

	assigned varSet   // the vars assigned
	vars     []uint64 // their values
	val      []uint64 // each term's value, where exact
	bad      []bool   // exact, and undefined (Go would panic)
	iv       []ival   // each term's interval

	seen  []uint32 // explain's marks, by term
	epoch uint32   // the current explain's mark
	// frontier numbers the terms of one var that a term of more vars
	// reads (-1 for the others), in which explanations are written (set
	// by the class search).
	frontier []int32

	exactNow []bool   // each term evaluated exactly, at its last evaluation
	changed  []uint32 // the update in which each term's value last changed
	round    uint32   // the current update

	// choice is, for an if-then-else a comparison reads through
	// (selects), the operand its condition decided at its last evaluation
	// (1 or 2), 0 while undecided.
	choice  []int8
	selects []bool
}

// progNode is one term of a classProgram.
type progNode struct {
	op    rt.Op
	k, k2 rt.Kind
	nargs uint8
	args  [3]int32
	bits  uint64 // a constant's bits, an input's var
	reads varSet // the vars it reads
}

// compileClasses compiles the constraints cons over vars with the given
// leaves, or reports a term it has no rule for (a string, an operator
// with more than three operands).
func compileClasses(cons []*sym.Expr, leaves []rt.Leaf) (*classProgram, bool) {
	p := &classProgram{}
	index := map[*sym.Expr]int32{}
	var visit func(e *sym.Expr) (int32, bool)
	visit = func(e *sym.Expr) (int32, bool) {
		if i, ok := index[e]; ok {
			return i, true
		}
		if e.Kind() == rt.KString || e.NumArgs() > len(progNode{}.args) {
			return 0, false
		}
		n := progNode{op: e.Op(), k: e.Kind(), k2: e.K2(), nargs: uint8(e.NumArgs()), bits: e.Bits()}
		switch e.Op() {
		case rt.OpInput:
			if e.Input() >= len(leaves) || e.Input() >= maxClassParts {
				return 0, false
			}
			n.reads = varOnly(e.Input())
		case rt.OpConst, rt.OpIte, rt.OpLAnd, rt.OpLOr,
			rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot, rt.OpShl, rt.OpShr,
			rt.OpNeg, rt.OpCpl, rt.OpNot, rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe, rt.OpConv:
		default:
			return 0, false
		}
		for a := range n.nargs {
			ai, ok := visit(e.Arg(int(a)))
			if !ok {
				return 0, false
			}
			n.args[a] = ai
			n.reads = n.reads.or(p.nodes[ai].reads)
		}
		i := int32(len(p.nodes))
		p.nodes = append(p.nodes, n)
		p.terms = append(p.terms, e)
		index[e] = i
		return i, true
	}
	for _, c := range cons {
		i, ok := visit(c)
		if !ok {
			return nil, false
		}
		p.roots = append(p.roots, i)
	}
	p.byVar = make([][]int32, len(leaves))
	p.only = make([][]int32, len(leaves))
	for i, n := range p.nodes {
		for v := range leaves {
			if n.reads.has(v) {
				p.byVar[v] = append(p.byVar[v], int32(i))
				if n.reads == varOnly(v) {
					p.only[v] = append(p.only[v], int32(i))
				}
			}
		}
	}
	p.domain = make([]ival, len(leaves))
	for v, l := range leaves {
		switch {
		case l.IsLen && l.Max >= 0:
			p.domain[v] = fromActual(l.K, 0, int64(l.Max), true)
		default:
			p.domain[v] = top(l.K)
		}
	}
	p.vars = make([]uint64, len(leaves))
	p.val = make([]uint64, len(p.nodes))
	p.bad = make([]bool, len(p.nodes))
	p.iv = make([]ival, len(p.nodes))
	p.seen = make([]uint32, len(p.nodes))
	p.exactNow = make([]bool, len(p.nodes))
	p.choice = make([]int8, len(p.nodes))
	p.selects = make([]bool, len(p.nodes))
	var mark func(i int32)
	mark = func(i int32) {
		if n := &p.nodes[i]; n.op == rt.OpIte && !p.selects[i] {
			p.selects[i] = true
			mark(n.args[1])
			mark(n.args[2])
		}
	}
	for _, n := range p.nodes {
		if isComparison(n.op) && n.k2.Integer() {
			mark(n.args[0])
			mark(n.args[1])
		}
	}
	p.changed = make([]uint32, len(p.nodes))
	for i := range p.nodes {
		p.eval(int32(i))
	}
	return p, true
}

// assign gives var v the value x and evaluates again the terms reading
// it whose operands changed; it returns how many it evaluated.
func (p *classProgram) assign(v int, x uint64) int {
	p.vars[v] = x
	p.assigned = p.assigned.with(v)
	return p.update(v)
}

// unassign makes var v range over its domain again.
func (p *classProgram) unassign(v int) {
	p.assigned = p.assigned.without(v)
	p.update(v)
}

// update evaluates again, in order, the terms reading var v one of whose
// operands changed (the var itself, first): a term's value (exact or an
// interval, and which of the two) is a function of its operands' alone,
// so the others keep theirs. In a search's chain of if-then-else over the
// bytes, a byte past the one the search stopped at changes the chain's
// innermost terms only.
func (p *classProgram) update(v int) int {
	p.round++
	if p.round == 0 {
		clear(p.changed)
		p.round = 1
	}
	evaluated := 0
	for _, i := range p.byVar[v] {
		n := &p.nodes[i]
		if n.op != rt.OpInput {
			dirty := false
			for a := range n.nargs {
				if p.changed[n.args[a]] == p.round {
					dirty = true
					break
				}
			}
			if !dirty {
				continue
			}
		}
		val, bad, iv, exact, choice := p.val[i], p.bad[i], p.iv[i], p.exactNow[i], p.choice[i]
		p.eval(i)
		evaluated++
		if p.val[i] != val || p.bad[i] != bad || p.iv[i] != iv || p.exactNow[i] != exact || p.choice[i] != choice ||
			p.choice[i] != 0 && p.changed[n.args[p.choice[i]]] == p.round {
			// (An if-then-else whose choice changed, or whose chosen
			// operand did, changes the term chosen reaches through it.)
			p.changed[i] = p.round
		}
	}
	return evaluated
}

// evalOnly evaluates exactly the terms reading var v alone, for the value
// x of v, leaving the other terms as they are (classify).
func (p *classProgram) evalOnly(v int, x uint64) {
	p.vars[v] = x
	for _, i := range p.only[v] {
		p.val[i], p.bad[i] = p.exact(&p.nodes[i])
	}
}

// eval evaluates term i from its operands.
func (p *classProgram) eval(i int32) {
	n := &p.nodes[i]
	if p.selects[i] {
		switch c := p.iv[n.args[0]]; {
		case c.lo == 1:
			p.choice[i] = 1
		case c.hi == 0:
			p.choice[i] = 2
		default:
			p.choice[i] = 0
		}
	}
	p.exactNow[i] = n.reads.within(p.assigned)
	if p.exactNow[i] {
		v, bad := p.exact(n)
		p.val[i], p.bad[i] = v, bad
		if bad {
			p.iv[i] = applyInterval(rt.OpInvalid, n.k, n.k2, nil)
		} else {
			o := ordered(n.k, v)
			p.iv[i] = ival{o, o}
		}
		return
	}
	if n.op == rt.OpInput {
		p.iv[i] = p.domain[n.bits]
		return
	}
	var buf [3]ival
	for a := range n.nargs {
		buf[a] = p.iv[n.args[a]]
	}
	p.iv[i] = applyInterval(n.op, n.k, n.k2, buf[:n.nargs])
	if isComparison(n.op) && n.k2.Integer() && p.chosen(n.args[0]) == p.chosen(n.args[1]) {
		// Both operands take the value of one term: x == x holds
		// wherever it is defined, whatever x.
		switch n.op {
		case rt.OpEq, rt.OpLe, rt.OpGe:
			p.iv[i] = ival{1, 1}
		default:
			p.iv[i] = ival{0, 0}
		}
	}
}

// chosen follows term i through the if-then-elses whose condition is
// decided to the term whose value it takes: a byte of a concatenation
// (ite(k < len(a), a[k], b[k - len(a)])) is a's byte once the length is
// assigned, and a comparison of it with a[k] — a string compared with a
// prefix of itself — is decided without assigning the byte.
func (p *classProgram) chosen(i int32) int32 {
	for p.choice[i] != 0 {
		i = p.nodes[i].args[p.choice[i]]
	}
	return i
}

// exact is the value of a term every var of which is assigned, and
// whether it is undefined.
func (p *classProgram) exact(n *progNode) (uint64, bool) {
	switch n.op {
	case rt.OpConst:
		return n.bits, false
	case rt.OpInput:
		return p.vars[n.bits], false
	case rt.OpIte:
		c := n.args[0]
		if p.bad[c] {
			return 0, true
		}
		b := n.args[2]
		if p.val[c] == 1 {
			b = n.args[1]
		}
		return p.val[b], p.bad[b]
	case rt.OpLAnd, rt.OpLOr:
		a, b := n.args[0], n.args[1]
		if p.bad[a] {
			return 0, true
		}
		if (p.val[a] == 1) == (n.op == rt.OpLOr) {
			return p.val[a], false
		}
		return p.val[b], p.bad[b]
	}
	var x, y uint64
	for a := range n.nargs {
		if p.bad[n.args[a]] {
			return 0, true
		}
	}
	if n.nargs > 0 {
		x = p.val[n.args[0]]
	}
	if n.nargs > 1 {
		y = p.val[n.args[1]]
	}
	v, err := sym.Apply(n.op, n.k, n.k2, x, y)
	return v, err != nil
}

// distinct reports whether term i, of one var, takes a different value on
// each value of the var: the var itself, or converted to integer kinds at
// least as wide (which keep the bits).
func (p *classProgram) distinct(i int32) bool {
	n := &p.nodes[i]
	for n.op == rt.OpConv {
		if !n.k2.Integer() || !n.k.Integer() || n.k.Bits() < n.k2.Bits() {
			return false
		}
		n = &p.nodes[n.args[0]]
	}
	return n.op == rt.OpInput
}

// explain returns the assigned vars term i's current interval depends on,
// and how many terms it visited: an if-then-else whose condition is
// decided depends on the condition and the operand it chose, a
// conjunction one operand of which is false (a disjunction one of which
// is true) on that operand, every other term on all its operands. Every
// completion of an assignment that agrees with this one on those vars
// gives the term a value within its current interval, as evaluation
// reads only them; a constraint false now is false on all of them, which
// is what lets the search jump back over the vars that did not matter.
//
// With terms not nil, it also sets there the frontier terms (see
// frontier) the walk reads, and stops at them (term i must read two vars
// or more, so that every path down meets one): every completion that
// gives those terms their current values gives term i a value within its
// interval too, whatever values of their vars it takes. A byte a search
// over the string found not to be a space depends on s[k] == ' ' alone,
// and any other byte that is not one fails the same way.
func (p *classProgram) explain(i int32, terms []uint64) (varSet, int) {
	p.epoch++
	if p.epoch == 0 {
		clear(p.seen)
		p.epoch = 1
	}
	var vars varSet
	visited := 0
	var walk func(i int32)
	walk = func(i int32) {
		n := &p.nodes[i]
		if p.seen[i] == p.epoch || !n.reads.meets(p.assigned) {
			return
		}
		if terms == nil && n.reads.and(p.assigned).within(vars) {
			return // every var it reads already counted
		}
		p.seen[i] = p.epoch
		visited++
		if terms != nil {
			if f := p.frontier[i]; f >= 0 {
				terms[f/64] |= 1 << (f % 64)
				vars = vars.or(n.reads)
				return
			}
		}
		switch n.op {
		case rt.OpInput:
			vars = vars.or(n.reads)
			return
		case rt.OpIte:
			switch c := p.iv[n.args[0]]; {
			case c.lo == 1:
				walk(n.args[0])
				walk(n.args[1])
				return
			case c.hi == 0:
				walk(n.args[0])
				walk(n.args[2])
				return
			}
		case rt.OpLAnd, rt.OpLOr:
			decides := int64(0) // a false operand decides a conjunction
			if n.op == rt.OpLOr {
				decides = 1
			}
			for a := range 2 {
				if x := p.iv[n.args[a]]; x.lo == decides && x.hi == decides {
					walk(n.args[a])
					return
				}
			}
		}
		for a := range n.nargs {
			walk(n.args[a])
		}
	}
	walk(i)
	return vars, visited
}
