package solver

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Classes is a decorator that decides, by a backtracking search, groups
// whose every input is a small-domain part (domains.go) — a string's
// bytes and length, a slice length, a bool or an 8-bit input — when their
// constraints relate several parts. That is what a parser's path asks
// once it has scanned a few bytes: the position strings.IndexByte found
// (ite(s[0] == '.', 0, ite(s[1] == '.', 1, ...)) > 0), how many dots
// strings.Count found, a byte at a computed position, a slice compared
// with a constant. Z3 spent 7 to 40 ms on each, bit-blasting a dozen
// bytes, and most are unsatisfiable.
//
// The group is written over its parts, each an input of its own, with
// the operations on strings written over their bytes exactly as the core
// encodes them (classes_terms.go). A part is read through a few terms of
// that part alone (s[0] == '.', int32(s[0]) - '0'); two values on which
// each of those terms takes the same value are interchangeable in every
// constraint, so the part's domain falls into classes — for a byte
// compared with '.', ' ' and the digits, four — found by evaluation over
// the whole domain. The search assigns each part one class after another
// (the seed's class first, then in order of each class's most readable
// value), evaluates a constraint exactly once all its parts are assigned
// and as an interval before (classes_prog.go; only the terms whose operands
// changed), and learns from each failure what it depends on: the terms
// of one part the failing constraints' evaluation read (s[7] == ' '),
// not every part they mention — a search of a byte that stopped at s[1]
// does not depend on s[5]. A later class of the part that gives those
// terms the same values fails the same way and is skipped, and when
// every class fails the search jumps back to the deepest earlier part
// the failures read. Exhausting the
// classes proves the group unsatisfiable, exactly; the
// first complete assignment is a model, built into strings and checked on
// the original constraints by evaluation. A search beyond its bounds
// (classBounds) gives up, and the next solver decides; so does every group
// outside the fragment. The layer never changes an answer.
type Classes struct {
	next    Solver
	m       *Metrics
	c       *sym.Context // the rewritten groups' terms, shared across queries
	classes *classCache  // the classes found, by what they depend on
}

// NewClasses returns the layer in front of next.
func NewClasses(next Solver, m *Metrics) *Classes {
	return &Classes{next: next, m: m, c: sym.NewContext(), classes: &classCache{}}
}

// A classCache remembers the classes of the vars of earlier groups. A
// var's classes are a function of its domain in the order values are
// preferred and of the terms of that var alone the group reads or
// constrains it by — terms of the layer's shared context, where equal
// terms are one — so a later group with the same ones gets the same
// classes without evaluating its terms over the domain again. The
// queries of one exploration share most of them (a parser's path
// prefix). Safe for concurrent use; cleared when it holds
// maxCachedClasses entries.
type classCache struct {
	mu sync.Mutex
	m  map[string][]uint64
}

const maxCachedClasses = 1 << 14

func (cc *classCache) get(key []byte) ([]uint64, bool) {
	if cc == nil {
		return nil, false
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	v, ok := cc.m[string(key)]
	return v, ok
}

func (cc *classCache) put(key []byte, values []uint64) {
	if cc == nil {
		return
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.m == nil || len(cc.m) >= maxCachedClasses {
		cc.m = map[string][]uint64{}
	}
	cc.m[string(key)] = values
}

// maxClassParts bounds the parts of a group the layer searches.
const maxClassParts = 128

// classBounds returns the bounds of a search over a group of the given
// number of terms: maxClassNodes, maxClassWork and maxClassWalk, scaled
// for a group of more than maxClassWork/classScale terms by its size
// (the work bound classScale terms evaluated per term of the group). Z3's
// time on a group grows with its size (the formula it bit-blasts), so a
// search may spend more before it gives up on a larger one: go-glob's
// counts of '*' over "*" + pattern + "*", groups of 700–3,000 terms, took
// Z3 150–900 ms each, and the search decides them in 0.1–3 M terms
// evaluated (10–450 ms). The bounds depend on the group alone, so which
// layer answers — and the model — does not depend on timing.
func classBounds(terms int) (nodes, work, walk int) {
	s := max(1, terms*classScale/maxClassWork)
	return maxClassNodes * s, maxClassWork * s, maxClassWalk * s
}

// classScale is the terms evaluated a search may spend per term of its
// group, for groups large enough to need more than maxClassWork.
const classScale = 1024

// maxClassNodes bounds the assignments one search over a small group
// tries, maxClassWork the terms it evaluates again for them, and
// maxClassWalk the terms it visits to explain failures (together a few
// milliseconds); classBounds scales them for groups of 128 terms or more.
const (
	maxClassNodes = 4096
	maxClassWork  = 1 << 16
	maxClassWalk  = 1 << 18
)

// Solve implements Solver.
func (s *Classes) Solve(ctx context.Context, q Query) (Result, error) {
	if hasFloat(q) {
		return s.next.Solve(ctx, q) // float terms have no value classes (core_float.go)
	}
	if r, ok := classSearch(s.c, s.classes, q); ok {
		s.m.add(func(st *Stats) { st.ClassHits++ })
		return r, nil
	}
	return s.next.Solve(ctx, q)
}

// A classVar is one part of a group made an input of its own.
type classVar struct {
	p      part
	values []uint64 // one value of each class, in the order tried
}

// classSearch decides q if it is in the layer's fragment and the search
// ends within its bound; c holds the rewritten terms, and cache (if not
// nil) the classes found for earlier groups of c's terms.
func classSearch(c *sym.Context, cache *classCache, q Query) (Result, bool) {
	if len(q.Constraints) == 0 || len(q.Seed) != len(q.Leaves) {
		return Result{}, false
	}
	g, ok := newClassGroup(c, q)
	if !ok {
		return Result{}, false
	}
	g.classify(q, cache)
	found, ok := g.search()
	if !ok && g.narrow(q) {
		// Narrowed, the search starts again with its bounds.
		g.nodes, g.work, g.walk = 0, 0, 0
		found, ok = g.search()
	}
	if !ok {
		return Result{}, false
	}
	if !found {
		return Result{Status: Unsat}, true
	}
	values := make(map[part]uint64, len(g.vars))
	for j, v := range g.vars {
		values[v.p] = g.prog.vars[j]
	}
	model, ok := partModel(q, values)
	if !ok {
		return Result{}, false
	}
	return Result{Status: Sat, Model: model}, true
}

// classGroup is a group rewritten over its parts and compiled.
type classGroup struct {
	vars   []classVar
	leaves []rt.Leaf   // the rewritten group's layout, one leaf per var
	cons   []*sym.Expr // the rewritten constraints
	prog   *classProgram
	// front lists the frontier terms (classProgram.frontier) by var, in
	// the numbering of prog.frontier; var d's are front[frontStart[d]:
	// frontStart[d+1]].
	front      []int32
	frontStart []int
	// complete[d] lists the constraints whose last var is var d; partial[d]
	// those that read var d and a later var; unary[d] those on var d alone.
	complete, partial, unary [][]int
	nodes                    int // the assignments tried
	work                     int // the terms evaluated again
	walk                     int // the terms visited to explain failures
	// The search's bounds on nodes, work and walk (classBounds).
	maxNodes, maxWork, maxWalk int
}

// newClassGroup rewrites q over its parts, or reports that q is outside the
// fragment: a part that is not small-domain, a float input, no part or
// more than maxClassParts. (A group of one part is usually the
// small-domain layer's, but the refutation layer between the two may
// leave one: its guards decided, a parser's query can come down to
// len(p) == 0.)
func newClassGroup(c *sym.Context, q Query) (*classGroup, bool) {
	var parts []part
	seen := map[part]bool{}
	add := func(p part) {
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	for _, t := range q.Constraints {
		for _, p := range partsOf(t, q.Leaves) {
			if p.in >= len(q.Leaves) || q.Leaves[p.in].Float {
				return nil, false
			}
			if l := q.Leaves[p.in]; p.pos == wholeString {
				// Read as a whole: its length and every byte.
				if l.K != rt.KString || l.Max < 0 || l.Max >= maxClassParts {
					return nil, false
				}
				add(part{in: p.in, pos: -1})
				for k := range l.Max {
					add(part{in: p.in, pos: k})
				}
				continue
			}
			if domainSize(q.Leaves, p) == 0 {
				return nil, false
			}
			add(p)
		}
	}
	if len(parts) == 0 || len(parts) > maxClassParts {
		return nil, false
	}
	// Whole parts (lengths first among them) before bytes, bytes in
	// string order: a parser's constraints are about a prefix.
	slices.SortFunc(parts, func(a, b part) int {
		if (a.pos < 0) != (b.pos < 0) {
			if a.pos < 0 {
				return -1
			}
			return 1
		}
		if a.in != b.in {
			return a.in - b.in
		}
		return a.pos - b.pos
	})
	g := &classGroup{}
	index := map[part]int{}
	for j, p := range parts {
		index[p] = j
		l := q.Leaves[p.in]
		var leaf rt.Leaf
		switch {
		case p.pos >= 0:
			leaf = rt.Leaf{K: rt.KUint8, Path: fmt.Sprintf("%s[%d]", l.Path, p.pos)}
		case l.K == rt.KString:
			leaf = rt.Leaf{K: rt.KInt, IsLen: true, Max: l.Max, Path: "len(" + l.Path + ")"}
		default:
			leaf = l
		}
		g.vars = append(g.vars, classVar{p: p})
		g.leaves = append(g.leaves, leaf)
	}
	w := newPartRewriter(c, q.Leaves, index)
	for _, t := range q.Constraints {
		r, ok := w.term(t)
		if ok {
			r, ok = w.distribute(r)
		}
		if !ok {
			return nil, false
		}
		g.cons = append(g.cons, r)
	}
	prog, ok := compileClasses(g.cons, g.leaves)
	if !ok {
		return nil, false
	}
	g.prog = prog
	g.maxNodes, g.maxWork, g.maxWalk = classBounds(len(prog.nodes))
	g.complete = make([][]int, len(g.vars))
	g.partial = make([][]int, len(g.vars))
	g.unary = make([][]int, len(g.vars))
	for i, r := range prog.roots {
		reads := prog.nodes[r].reads
		switch {
		case reads.empty():
			// Constant: false makes the group unsatisfiable.
			if prog.bad[r] {
				return nil, false
			}
			if prog.val[r] == 0 {
				g.unary[0] = append(g.unary[0], i)
			}
			continue
		case reads.count() == 1:
			v := reads.first()
			g.unary[v] = append(g.unary[v], i)
			continue
		}
		last := reads.last()
		g.complete[last] = append(g.complete[last], i)
		for r := reads.without(last); !r.empty(); {
			v := r.first()
			g.partial[v] = append(g.partial[v], i)
			r = r.without(v)
		}
	}
	return g, true
}

// domainValues lists var j's domain in the order values are preferred:
// the seed's value first; for a byte then printable ASCII, then the rest,
// each ascending; for other parts by distance from the seed in the
// kind's order, the smaller first on a tie.
func (g *classGroup) domainValues(j int, q Query) []uint64 {
	v := g.vars[j]
	l := q.Leaves[v.p.in]
	n := domainSize(q.Leaves, v.p)
	out := make([]uint64, 0, n)
	if v.p.pos >= 0 {
		seed := -1
		if s := q.Seed[v.p.in].Str; v.p.pos < len(s) {
			seed = int(s[v.p.pos])
		}
		if seed >= 0 {
			out = append(out, uint64(seed))
		}
		for b := ' '; b <= '~'; b++ {
			if int(b) != seed {
				out = append(out, uint64(b))
			}
		}
		for b := range 256 {
			if (b < ' ' || b > '~') && b != seed {
				out = append(out, uint64(b))
			}
		}
		return out
	}
	seed := int(q.Seed[v.p.in].Bits)
	if l.K == rt.KString {
		seed = len(q.Seed[v.p.in].Str)
	}
	key := func(x int) int64 {
		if l.K.Signed() && !l.IsLen && l.K != rt.KString {
			return ordered(l.K, uint64(x))
		}
		return int64(x)
	}
	vals := make([]int, n)
	for i := range vals {
		vals[i] = i
	}
	sk := key(min(max(seed, 0), n-1))
	dist := func(x int) int64 {
		d := key(x) - sk
		if d < 0 {
			return -d
		}
		return d
	}
	slices.SortStableFunc(vals, func(a, b int) int {
		if da, db := dist(a), dist(b); da != db {
			if da < db {
				return -1
			}
			return 1
		}
		if ka, kb := key(a), key(b); ka != kb {
			if ka < kb {
				return -1
			}
			return 1
		}
		return 0
	})
	for _, x := range vals {
		out = append(out, uint64(x))
	}
	return out
}

// classify computes the vars' classes: values of a var are in one class
// when every maximal term of that var alone takes the same value on them
// (or is undefined on both). It keeps the first value of each class in
// the preferred order, among the values the constraints on the var alone
// accept (those are not checked again).
func (g *classGroup) classify(q Query, cache *classCache) {
	p := g.prog
	// The frontier: terms of one var read by a term of more vars.
	frontier := make([][]int32, len(g.vars))
	in := make([]bool, len(p.nodes))
	for i := range p.nodes {
		n := &p.nodes[i]
		for a := range n.nargs {
			ai := n.args[a]
			r := p.nodes[ai].reads
			if r.count() == 1 && r != n.reads && !in[ai] {
				in[ai] = true
				v := r.first()
				frontier[v] = append(frontier[v], ai)
			}
		}
	}
	g.frontStart = make([]int, len(g.vars)+1)
	p.frontier = make([]int32, len(p.nodes))
	for i := range p.frontier {
		p.frontier[i] = -1
	}
	for j, f := range frontier {
		g.frontStart[j] = len(g.front)
		for _, i := range f {
			p.frontier[i] = int32(len(g.front))
			g.front = append(g.front, i)
		}
	}
	g.frontStart[len(g.vars)] = len(g.front)
	var key []byte
	var ids []uint64
	for j := range g.vars {
		domain := g.domainValues(j, q)
		// The key: the domain, the constraints on var j alone and the
		// frontier's terms, each list preceded by its length.
		key = binary.AppendUvarint(key[:0], uint64(len(domain)))
		for _, x := range domain {
			key = binary.AppendUvarint(key, x)
		}
		key = binary.AppendUvarint(key, uint64(len(g.unary[j])))
		for _, c := range g.unary[j] {
			key = binary.AppendUvarint(key, p.terms[p.roots[c]].ID())
		}
		key = binary.AppendUvarint(key, uint64(len(frontier[j])))
		ids = ids[:0]
		for _, f := range frontier[j] {
			ids = append(ids, p.terms[f].ID())
		}
		slices.Sort(ids)
		for _, id := range ids {
			key = binary.AppendUvarint(key, id)
		}
		if values, ok := cache.get(key); ok {
			g.vars[j].values = values
			continue
		}
		g.vars[j].values = g.classesOf(j, domain, frontier[j])
		cache.put(key, g.vars[j].values)
	}
	// Back to no var assigned.
	for i := range p.nodes {
		p.eval(int32(i))
	}
}

// classesOf returns the first value of each of var j's classes, in the
// order of domain, among the values the constraints on var j alone
// accept; frontier lists the terms of var j alone the group reads.
func (g *classGroup) classesOf(j int, domain []uint64, frontier []int32) []uint64 {
	p := g.prog
	var values []uint64
values:
	for _, x := range domain {
		p.evalOnly(j, x)
		for _, c := range g.unary[j] {
			if r := p.roots[c]; p.bad[r] || p.val[r] == 0 {
				continue values
			}
		}
		values = append(values, x)
	}
	// A term that keeps every value apart (the part itself, widened)
	// makes every value a class of its own.
	if slices.ContainsFunc(frontier, p.distinct) {
		return values
	}
	var classes []uint64
	seen := map[string]bool{}
	var sig []byte
	for _, x := range values {
		sig = g.signature(sig[:0], j, x, frontier)
		if !seen[string(sig)] {
			seen[string(sig)] = true
			classes = append(classes, x)
		}
	}
	return classes
}

// maxNarrowRounds bounds the rounds of narrow.
const maxNarrowRounds = 8

// narrow removes each var's classes on which a constraint reading it and
// other vars is false whatever their values (its interval, the others
// ranging over their domains), and narrows the var's domain to the
// values of the classes left and accepted by the constraints on it
// alone, so that the next vars are tried against narrower intervals: in
// rounds, until a round removes nothing, for at most a quarter of the
// search's work bound. It reports whether it removed a class or narrowed
// a domain. The classes removed hold no solution, so a search after it
// finds the model it would have found, in fewer assignments. Trying
// every class of every var costs more than most searches, which succeed
// early, so classSearch narrows only a group whose search gave up, and
// searches it again: a DNS message's two 16-bit offsets checked against
// its length (x + 23 <= len(msg) <= 42, y + 30 < x + 23, y + 32 >
// len(msg)) keep one high byte each, 0, and a dozen values of each low
// byte and of the length, where the search had tried the second offset's
// 256 high bytes for each low byte of the first and given up.
func (g *classGroup) narrow(q Query) (narrowed bool) {
	p := g.prog
	budget := g.maxWork / 4
	work := 0
	// The constraints reading each var and another.
	reading := make([][]int32, len(g.vars))
	for j := range g.vars {
		for _, i := range g.complete[j] {
			reading[j] = append(reading[j], p.roots[i])
		}
		for _, i := range g.partial[j] {
			reading[j] = append(reading[j], p.roots[i])
		}
	}
	for round := range maxNarrowRounds {
		removed := false
		for j := range g.vars {
			if len(reading[j]) == 0 {
				continue
			}
			if work > budget {
				return narrowed
			}
			values := g.vars[j].values
			var kept []uint64
			for _, x := range values {
				work += p.assign(j, x)
				if !slices.ContainsFunc(reading[j], func(r int32) bool { return p.iv[r].hi == 0 }) {
					kept = append(kept, x)
				}
			}
			p.unassign(j)
			work += len(p.byVar[j])
			if len(kept) < len(values) {
				// (values may be the class cache's: replaced, not changed.)
				g.vars[j].values = kept
				removed, narrowed = true, true
			} else if round > 0 || len(g.unary[j]) == 0 {
				continue
			}
			// The domain: the values of the classes kept.
			w, tighter := g.narrowDomain(j, q)
			work += w
			narrowed = narrowed || tighter
		}
		if !removed {
			return narrowed
		}
	}
	return narrowed
}

// narrowDomain sets var j's domain to the smallest interval holding the
// values of its classes (those of g.vars[j].values) the constraints on
// var j alone accept, and evaluates again the terms reading it; it
// returns the terms evaluated and whether the domain is smaller.
func (g *classGroup) narrowDomain(j int, q Query) (int, bool) {
	p := g.prog
	k := g.leaves[j].K
	hull := ival{1, 0}
	add := func(x uint64) {
		o := ordered(k, x)
		if hull.empty() {
			hull = ival{o, o}
		} else {
			hull = ival{min(hull.lo, o), max(hull.hi, o)}
		}
	}
	work := 0
	terms := g.front[g.frontStart[j]:g.frontStart[j+1]]
	if slices.ContainsFunc(terms, p.distinct) {
		// Every value a class of its own, accepted by the constraints on
		// var j alone (classesOf).
		for _, x := range g.vars[j].values {
			add(x)
		}
	} else {
		var sig []byte
		signature := func(x uint64) string {
			sig = g.signature(sig[:0], j, x, terms)
			return string(sig)
		}
		kept := map[string]bool{}
		for _, x := range g.vars[j].values {
			kept[signature(x)] = true
		}
		domain := g.domainValues(j, q)
	values:
		for _, x := range domain {
			if !kept[signature(x)] {
				continue
			}
			for _, c := range g.unary[j] {
				if r := p.roots[c]; p.bad[r] || p.val[r] == 0 {
					continue values
				}
			}
			add(x)
		}
		work += len(domain) * (len(terms) + len(g.unary[j]))
	}
	old := p.domain[j]
	if !hull.empty() {
		p.domain[j] = old.meet(hull)
	}
	// The terms of var j alone evaluated exactly above are evaluated
	// again as intervals with the rest: their values are read only while
	// exact.
	return work + p.update(j), p.domain[j] != old
}

// signature appends to sig the values the given terms of var j alone
// take for the value x of var j (evaluated exactly, evalOnly): two values
// with one signature over the var's frontier terms are in one class.
func (g *classGroup) signature(sig []byte, j int, x uint64, terms []int32) []byte {
	p := g.prog
	p.evalOnly(j, x)
	for _, f := range terms {
		if p.bad[f] {
			sig = append(sig, 1)
			continue
		}
		sig = append(sig, 0)
		sig = binary.LittleEndian.AppendUint64(sig, p.val[f])
	}
	return sig
}

// explain adds to terms the frontier terms constraint r's failure
// depends on, counting the terms visited.
func (g *classGroup) explain(r int32, terms []uint64) {
	_, visited := g.prog.explain(r, terms)
	g.walk += visited
}

// A classFailure is a value of a var that failed: the frontier terms of
// that var and earlier ones the failure depends on, and the values the
// var's frontier terms took.
type classFailure struct {
	because []uint64
	vals    []uint64
	bads    []bool
}

// search assigns the vars in order, depth first, and learns from each
// failure what it depends on: the frontier terms (values of terms of one
// var read by the others) the failing constraints' evaluation read
// (classProgram.explain), and for a subtree that failed, those of all
// its failures on the earlier vars. A later value of the var that gives
// those of its terms the same values fails the same way and is skipped;
// when every value of a var fails, the failure is due to the earlier
// vars' terms those failures read, and when a subtree's failure read no
// term of the var, no value of it can help: the search jumps back
// (conflict-directed backjumping). It reports whether an assignment
// satisfies every constraint (left in g.prog.vars), and false in ok if
// it gave up.
func (g *classGroup) search() (found, ok bool) {
	p := g.prog
	words := (len(g.front) + 63) / 64
	// keepBelow clears the terms of var d and later ones.
	keepBelow := func(set []uint64, d int) {
		n := g.frontStart[d]
		for w := range set {
			switch lo := w * 64; {
			case lo >= n:
				set[w] = 0
			case lo+64 > n:
				set[w] &= 1<<(n-lo) - 1
			}
		}
	}
	reads := func(set []uint64, d int) bool {
		for j := g.frontStart[d]; j < g.frontStart[d+1]; j++ {
			if set[j/64]>>(j%64)&1 == 1 {
				return true
			}
		}
		return false
	}
	// agrees reports whether var d's frontier terms the failure f read
	// have the values they had then.
	agrees := func(f *classFailure, d int) bool {
		lo := g.frontStart[d]
		for j := lo; j < g.frontStart[d+1]; j++ {
			if f.because[j/64]>>(j%64)&1 == 1 {
				if t := g.front[j]; p.bad[t] != f.bads[j-lo] || !p.bad[t] && p.val[t] != f.vals[j-lo] {
					return false
				}
			}
		}
		return true
	}
	var dfs func(d int) (found, ok bool, conflict []uint64)
	dfs = func(d int) (bool, bool, []uint64) {
		if d == len(g.vars) {
			return true, true, nil
		}
		conflict := make([]uint64, words)
		var failures []*classFailure
		defer p.unassign(d)
	values:
		for _, x := range g.vars[d].values {
			g.nodes++
			if g.work += p.assign(d, x); g.nodes > g.maxNodes || g.work > g.maxWork || g.walk > g.maxWalk {
				return false, false, nil
			}
			for _, f := range failures {
				if agrees(f, d) {
					or(conflict, f.because)
					continue values
				}
			}
			because := make([]uint64, words)
			failed := false
			for _, i := range g.complete[d] {
				r := p.roots[i]
				if p.bad[r] {
					return false, false, nil
				}
				if p.val[r] == 0 {
					g.explain(r, because)
					failed = true
					break
				}
			}
			if !failed {
				for _, i := range g.partial[d] {
					if r := p.roots[i]; p.iv[r].hi == 0 {
						g.explain(r, because)
						failed = true
						break
					}
				}
			}
			if !failed {
				found, ok, deeper := dfs(d + 1)
				if found || !ok {
					return found, ok, nil
				}
				if !reads(deeper, d) {
					// No value of d can help: jump back.
					return false, true, deeper
				}
				because = deeper
			}
			keepBelow(because, d+1)
			terms := g.front[g.frontStart[d]:g.frontStart[d+1]] // d's
			f := &classFailure{because: because, vals: make([]uint64, len(terms)), bads: make([]bool, len(terms))}
			for j, t := range terms {
				f.vals[j], f.bads[j] = p.val[t], p.bad[t]
			}
			failures = append(failures, f)
			or(conflict, because)
		}
		keepBelow(conflict, d)
		return false, true, conflict
	}
	found, ok, _ = dfs(0)
	return found, ok
}

// or adds the set b to a.
func or(a, b []uint64) {
	for w := range a {
		a[w] |= b[w]
	}
}
