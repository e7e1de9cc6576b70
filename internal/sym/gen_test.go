package sym

import (
	"math/rand/v2"

	"github.com/dowse-go/dowse/rt"
)

// gexpr is a test-side expression tree, evaluated by the Go oracle and
// converted both to terms (through the simplifying constructors) and to an
// rt arena (through Decode).
type gexpr struct {
	op   rt.Op
	k    rt.Kind
	k2   rt.Kind
	args []*gexpr
	bits uint64
	str  string
}

var intKinds = []rt.Kind{rt.KInt8, rt.KInt16, rt.KInt32, rt.KInt64, rt.KUint8, rt.KUint16, rt.KUint32, rt.KUint64}

// testLayout is the input vector of the random tests: two inputs of every
// kind.
var testLayout = func() []rt.Kind {
	var ks []rt.Kind
	for range 2 {
		ks = append(ks, intKinds...)
		ks = append(ks, rt.KBool, rt.KString)
	}
	return ks
}()

// eval computes g with Go's operators; ok is false where Go would panic.
func (g *gexpr) eval(in []rt.Value) (any, bool) {
	switch g.op {
	case rt.OpConst:
		return goValue(g.k, rt.Value{Bits: g.bits}), true
	case rt.OpStr:
		return g.str, true
	case rt.OpInput:
		return goValue(g.k, in[g.bits]), true
	case rt.OpLAnd, rt.OpLOr:
		a, ok := g.args[0].eval(in)
		if !ok {
			return nil, false
		}
		if a.(bool) == (g.op == rt.OpLOr) {
			return a, true
		}
		return g.args[1].eval(in)
	case rt.OpIte:
		c, ok := g.args[0].eval(in)
		if !ok {
			return nil, false
		}
		if c.(bool) {
			return g.args[1].eval(in)
		}
		return g.args[2].eval(in)
	}
	vals := make([]any, len(g.args))
	for i, a := range g.args {
		v, ok := a.eval(in)
		if !ok {
			return nil, false
		}
		vals[i] = v
	}
	switch g.op {
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot, rt.OpShl, rt.OpShr:
		return goBinary(g.op, vals[0], vals[1])
	case rt.OpNeg, rt.OpCpl, rt.OpNot:
		return goUnaryAny(g.op, vals[0]), true
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		return goCompareAny(g.op, vals[0], vals[1]), true
	case rt.OpConv:
		return goConvertAny(g.k, vals[0]), true
	case rt.OpLen:
		return int64(len(vals[0].(string))), true
	case rt.OpIndex:
		s := vals[0].(string)
		i, ok := goCount(vals[1])
		if !ok || i >= uint64(len(s)) {
			return nil, false
		}
		return s[i], true
	case rt.OpSlice:
		s := vals[0].(string)
		lo, hi := vals[1].(int64), vals[2].(int64)
		if lo < 0 || lo > hi || hi > int64(len(s)) {
			return nil, false
		}
		return s[lo:hi], true
	case rt.OpConcat:
		return vals[0].(string) + vals[1].(string), true
	case rt.OpFromList:
		b := make([]byte, len(vals))
		for i, v := range vals {
			b[i] = v.(uint8)
		}
		return string(b), true
	}
	panic("eval: bad operator")
}

// term builds g through the simplifying constructors.
func (g *gexpr) term(c *Context) (*Expr, error) {
	args := make([]*Expr, len(g.args))
	for i, a := range g.args {
		t, err := a.term(c)
		if err != nil {
			return nil, err
		}
		args[i] = t
	}
	return c.Make(g.op, g.k, g.k2, args, g.bits, g.str)
}

// arena encodes g as an rt arena; shared subtrees become shared nodes. The
// root is the last node.
func (g *gexpr) arena() []rt.Node {
	nodes := []rt.Node{{}}
	seen := map[*gexpr]rt.S{}
	var emit func(g *gexpr) rt.S
	emit = func(g *gexpr) rt.S {
		if s, ok := seen[g]; ok {
			return s
		}
		n := rt.Node{Op: g.op, K: g.k, K2: g.k2, Val: g.bits, Str: g.str}
		refs := make([]rt.S, len(g.args))
		for i, a := range g.args {
			refs[i] = emit(a)
		}
		if g.op == rt.OpFromList {
			n.List = refs
		} else {
			for i, r := range refs {
				*[]*rt.S{&n.A, &n.B, &n.C}[i] = r
			}
		}
		nodes = append(nodes, n)
		seen[g] = rt.S(len(nodes) - 1)
		return seen[g]
	}
	emit(g)
	return nodes
}

// generator produces random gexprs and input vectors.
type generator struct {
	r    *rand.Rand
	pool map[rt.Kind][]*gexpr // earlier subtrees, reused to create sharing
}

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, 7)), pool: map[rt.Kind][]*gexpr{}}
}

// interesting returns a boundary or random value of kind k.
func (gen *generator) interesting(k rt.Kind) uint64 {
	w := k.Bits()
	choices := []uint64{0, 1, 2, 7, ^uint64(0), 1 << (w - 1), 1<<(w-1) - 1, uint64(gen.r.IntN(16)), gen.r.Uint64()}
	if k == rt.KBool {
		return uint64(gen.r.IntN(2))
	}
	return truncate(k, choices[gen.r.IntN(len(choices))])
}

func (gen *generator) str() string {
	const alphabet = "ab\x00\xff~"
	n := gen.r.IntN(6)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[gen.r.IntN(len(alphabet))]
	}
	return string(b)
}

func (gen *generator) inputs() []rt.Value {
	in := make([]rt.Value, len(testLayout))
	for i, k := range testLayout {
		if k == rt.KString {
			in[i] = rt.Value{Str: gen.str()}
		} else {
			in[i] = rt.Value{Bits: gen.interesting(k)}
		}
	}
	return in
}

func (gen *generator) leaf(k rt.Kind) *gexpr {
	if gen.r.IntN(2) == 0 {
		var idx []int
		for i, lk := range testLayout {
			if lk == k {
				idx = append(idx, i)
			}
		}
		return &gexpr{op: rt.OpInput, k: k, bits: uint64(idx[gen.r.IntN(len(idx))])}
	}
	if k == rt.KString {
		return &gexpr{op: rt.OpStr, k: k, str: gen.str()}
	}
	return &gexpr{op: rt.OpConst, k: k, bits: gen.interesting(k)}
}

func (gen *generator) pick(ks []rt.Kind) rt.Kind { return ks[gen.r.IntN(len(ks))] }

// expr returns a random expression of kind k and depth at most d.
func (gen *generator) expr(k rt.Kind, d int) *gexpr {
	if p := gen.pool[k]; len(p) > 0 && gen.r.IntN(8) == 0 {
		return p[gen.r.IntN(len(p))]
	}
	var g *gexpr
	if d == 0 || gen.r.IntN(5) == 0 {
		g = gen.leaf(k)
	} else {
		switch k {
		case rt.KBool:
			g = gen.boolExpr(d)
		case rt.KString:
			g = gen.strExpr(d)
		default:
			g = gen.intExpr(k, d)
		}
	}
	gen.pool[k] = append(gen.pool[k], g)
	if len(gen.pool[k]) > 64 {
		gen.pool[k] = gen.pool[k][1:]
	}
	return g
}

func (gen *generator) intExpr(k rt.Kind, d int) *gexpr {
	node := func(op rt.Op, k2 rt.Kind, args ...*gexpr) *gexpr {
		return &gexpr{op: op, k: k, k2: k2, args: args}
	}
	switch gen.r.IntN(9) {
	case 0, 1, 2:
		ops := []rt.Op{rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot}
		return node(ops[gen.r.IntN(len(ops))], 0, gen.expr(k, d-1), gen.expr(k, d-1))
	case 3:
		ck := gen.pick(intKinds)
		count := &gexpr{op: rt.OpConst, k: ck, bits: uint64(gen.r.IntN(70))}
		if gen.r.IntN(3) == 0 {
			count = gen.expr(ck, d-1)
		}
		op := []rt.Op{rt.OpShl, rt.OpShr}[gen.r.IntN(2)]
		return node(op, ck, gen.expr(k, d-1), count)
	case 4:
		return node([]rt.Op{rt.OpNeg, rt.OpCpl}[gen.r.IntN(2)], 0, gen.expr(k, d-1))
	case 5:
		from := gen.pick(intKinds)
		return node(rt.OpConv, from, gen.expr(from, d-1))
	case 6:
		return node(rt.OpIte, 0, gen.expr(rt.KBool, d-1), gen.expr(k, d-1), gen.expr(k, d-1))
	case 7:
		if k == rt.KInt {
			return node(rt.OpLen, 0, gen.expr(rt.KString, d-1))
		}
	case 8:
		if k == rt.KUint8 {
			ik := gen.pick(intKinds)
			i := &gexpr{op: rt.OpConst, k: ik, bits: uint64(gen.r.IntN(4))}
			if gen.r.IntN(3) == 0 {
				i = gen.expr(ik, d-1)
			}
			return node(rt.OpIndex, ik, gen.expr(rt.KString, d-1), i)
		}
	}
	return gen.leaf(k)
}

func (gen *generator) boolExpr(d int) *gexpr {
	node := func(op rt.Op, k2 rt.Kind, args ...*gexpr) *gexpr {
		return &gexpr{op: op, k: rt.KBool, k2: k2, args: args}
	}
	switch gen.r.IntN(6) {
	case 0, 1, 2:
		k2 := gen.pick(append([]rt.Kind{rt.KBool, rt.KString}, intKinds...))
		ops := []rt.Op{rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe}
		if k2 == rt.KBool {
			ops = ops[:2]
		}
		return node(ops[gen.r.IntN(len(ops))], k2, gen.expr(k2, d-1), gen.expr(k2, d-1))
	case 3:
		return node(rt.OpNot, 0, gen.expr(rt.KBool, d-1))
	case 4:
		return node([]rt.Op{rt.OpLAnd, rt.OpLOr}[gen.r.IntN(2)], 0, gen.expr(rt.KBool, d-1), gen.expr(rt.KBool, d-1))
	default:
		return node(rt.OpIte, 0, gen.expr(rt.KBool, d-1), gen.expr(rt.KBool, d-1), gen.expr(rt.KBool, d-1))
	}
}

func (gen *generator) strExpr(d int) *gexpr {
	node := func(op rt.Op, args ...*gexpr) *gexpr {
		return &gexpr{op: op, k: rt.KString, args: args}
	}
	bound := func() *gexpr {
		if gen.r.IntN(3) == 0 {
			return gen.expr(rt.KInt, d-1)
		}
		return &gexpr{op: rt.OpConst, k: rt.KInt, bits: uint64(gen.r.IntN(4))}
	}
	switch gen.r.IntN(4) {
	case 0:
		return node(rt.OpConcat, gen.expr(rt.KString, d-1), gen.expr(rt.KString, d-1))
	case 1:
		s := gen.expr(rt.KString, d-1)
		hi := bound()
		if gen.r.IntN(2) == 0 {
			hi = &gexpr{op: rt.OpLen, k: rt.KInt, args: []*gexpr{s}}
		}
		return node(rt.OpSlice, s, bound(), hi)
	case 2:
		n := gen.r.IntN(4)
		bs := make([]*gexpr, n)
		for i := range bs {
			bs[i] = gen.expr(rt.KUint8, d-1)
		}
		return node(rt.OpFromList, bs...)
	default:
		return node(rt.OpIte, gen.expr(rt.KBool, d-1), gen.expr(rt.KString, d-1), gen.expr(rt.KString, d-1))
	}
}
