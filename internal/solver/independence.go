package solver

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Independence slices a query into groups of constraints that share no
// input, transitively. Groups the seed already satisfies are dropped (in a
// path query, every group but the negated branch's), and each remaining
// group is sent to the next solver on its own; inputs outside the solved
// groups keep their seed values. It is safe for concurrent use if the next
// solver is.
//
// A string input is sliced finer, by parts (domains.go): its length and
// its bytes at constant positions are variables of their own in the core's
// encoding, so constraints that read only "len(s)" and "s[3]" do not tie
// the constraints that read "s[5]"; a constraint that reads the string
// otherwise (a comparison, a slice, a symbolic index) ties all its parts.
// The model then takes from each group's answer only that group's parts,
// and is checked by evaluation: where a constraint is false on it, the
// query is sliced again by whole inputs.
type Independence struct {
	next    Solver
	metrics *Metrics

	parts *memo[partsKey, []part] // the parts each constraint reads, per layout
}

// partsKey identifies the parts of a constraint: its term and a hash of
// the layout (which inputs are strings, and their bounds).
type partsKey struct {
	id, layout uint64
}

// maxPartsEntries bounds the remembered parts; the memory is dropped when
// full.
const maxPartsEntries = 1 << 16

// NewIndependence returns the independence layer over next; m may be nil.
func NewIndependence(next Solver, m *Metrics) *Independence {
	return &Independence{next: next, metrics: m, parts: newMemo[partsKey, []part](maxPartsEntries)}
}

// Solve implements Solver.
func (s *Independence) Solve(ctx context.Context, q Query) (Result, error) {
	if err := validate(q); err != nil {
		return Result{}, err
	}
	s.metrics.add(func(st *Stats) { st.Constraints += int64(len(q.Constraints)) })
	var live []*sym.Expr
	for _, c := range q.Constraints {
		switch {
		case c.IsFalse():
			return Result{Status: Unsat, Cached: true}, nil
		case !c.IsTrue():
			live = append(live, c)
		}
	}

	if groups, parts, byParts := s.partitionParts(live, q.Leaves); byParts {
		r, ok, err := s.solveGroups(ctx, q, groups, parts)
		if err != nil || ok {
			return r, err
		}
	}
	r, _, err := s.solveGroups(ctx, q, partition(live), nil)
	return r, err
}

// solveGroups solves the groups the seed does not satisfy and merges their
// models: by parts of string inputs if parts (each constraint's) is not
// nil (ok is false when the merged model fails a constraint), else by
// whole inputs.
func (s *Independence) solveGroups(ctx context.Context, q Query, groups [][]*sym.Expr, parts map[*sym.Expr][]part) (r Result, ok bool, err error) {
	seedEval := sym.NewEvaluator(q.Seed)
	model := clone(q.Seed)
	cached := true
	solved := 0
	var m *partMerge
	if parts != nil {
		m = newPartMerge(q.Seed, parts)
	}
	for _, group := range groups {
		if holdsAll(seedEval, group) {
			continue
		}
		solved++
		s.metrics.add(func(st *Stats) { st.Groups++; st.Sliced += int64(len(group)) })
		sub := q
		sub.Constraints = group
		r, err := s.next.Solve(ctx, sub)
		if err != nil || r.Status != Sat {
			return r, true, err
		}
		cached = cached && r.Cached
		for _, v := range varsOf(group) {
			if m != nil && q.Leaves[v].K == rt.KString {
				m.take(group, v, r.Model[v].Str)
				continue
			}
			model[v] = r.Model[v]
		}
	}
	if m != nil {
		m.apply(model)
		ev := sym.NewEvaluator(model)
		for _, group := range groups {
			for _, c := range group {
				if holds, err := ev.Holds(c); err == nil && !holds {
					return Result{}, false, nil
				}
			}
		}
	}
	if solved == 0 {
		s.metrics.add(func(st *Stats) { st.SeedHits++ })
	}
	return Result{Status: Sat, Model: model, Cached: cached}, true, nil
}

// holdsAll reports whether every constraint evaluates to true; evaluation
// errors count as false.
func holdsAll(ev *sym.Evaluator, cs []*sym.Expr) bool {
	for i := len(cs) - 1; i >= 0; i-- { // the last constraint fails most often
		if ok, err := ev.Holds(cs[i]); err != nil || !ok {
			return false
		}
	}
	return true
}

// partition splits cs into groups connected by shared inputs, keeping the
// constraints' order inside each group and ordering groups by their first
// constraint. Constraints without inputs form groups of their own.
func partition(cs []*sym.Expr) [][]*sym.Expr {
	keys := make([][]int, len(cs))
	for i, c := range cs {
		keys[i] = c.Vars()
	}
	return groupBy(cs, keys)
}

// groupBy splits cs into groups connected by shared keys (union-find),
// keys[i] being those of cs[i], keeping the constraints' order inside each
// group and ordering groups by their first constraint. Constraints without
// keys form groups of their own.
func groupBy[K comparable](cs []*sym.Expr, keys [][]K) [][]*sym.Expr {
	// Union-find over dense numbers of the keys: one map lookup per key
	// read (a parser's path is hundreds of constraints, each query).
	number := make(map[K]int32, len(cs))
	var parent []int32
	num := func(k K) int32 {
		i, ok := number[k]
		if !ok {
			i = int32(len(parent))
			number[k] = i
			parent = append(parent, i)
		}
		return i
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	first := make([]int32, len(cs)) // each constraint's first key, -1 if none
	for i, ks := range keys {
		if len(ks) == 0 {
			first[i] = -1
			continue
		}
		a := num(ks[0])
		first[i] = a
		for _, k := range ks[1:] {
			if ra, rb := find(a), find(num(k)); ra != rb {
				parent[rb] = ra
			}
		}
	}
	index := make([]int32, len(parent)) // root → group + 1
	var groups [][]*sym.Expr
	for i, c := range cs {
		if first[i] < 0 {
			groups = append(groups, []*sym.Expr{c})
			continue
		}
		root := find(first[i])
		if index[root] == 0 {
			groups = append(groups, nil)
			index[root] = int32(len(groups))
		}
		g := index[root] - 1
		groups[g] = append(groups[g], c)
	}
	return groups
}

// varsOf is the sorted union of the inputs of cs.
func varsOf(cs []*sym.Expr) []int {
	seen := map[int]bool{}
	var out []int
	for _, c := range cs {
		for _, v := range c.Vars() {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// partsOf returns the parts c reads (domains.go), remembered per term and
// layout.
func (s *Independence) partsOf(c *sym.Expr, leaves []rt.Leaf, layout uint64) []part {
	key := partsKey{id: c.ID(), layout: layout}
	if ps, ok := s.parts.get(key); ok {
		return ps
	}
	ps := partsOf(c, leaves)
	s.parts.put(key, ps)
	return ps
}

// layoutHash hashes what the parts of constraints and their domains
// depend on in a layout: each leaf's kind, whether it is a length, and its
// bound.
func layoutHash(leaves []rt.Leaf) uint64 {
	h := fnv.New64a()
	var buf [10]byte
	for _, l := range leaves {
		buf[0], buf[1] = byte(l.K), 0
		if l.IsLen {
			buf[1] = 1
		}
		binary.LittleEndian.PutUint64(buf[2:], uint64(l.Max))
		h.Write(buf[:])
	}
	return h.Sum64()
}

// partitionParts splits cs into groups connected by shared parts (domains.go)
// of string inputs and shared other inputs, and returns each constraint's
// parts. It reports false when that slicing is no finer than partition's
// (no string input is read by parts in more than one group).
func (s *Independence) partitionParts(cs []*sym.Expr, leaves []rt.Leaf) ([][]*sym.Expr, map[*sym.Expr][]part, bool) {
	finer := false
	for _, c := range cs {
		for _, v := range c.Vars() {
			if v < len(leaves) && leaves[v].K == rt.KString {
				finer = true
			}
		}
	}
	if !finer {
		return nil, nil, false
	}
	layout := layoutHash(leaves)
	partsOfC := make([][]part, len(cs))
	byTerm := make(map[*sym.Expr][]part, len(cs))
	whole := map[int]bool{} // string inputs read as a whole somewhere
	for i, c := range cs {
		partsOfC[i] = s.partsOf(c, leaves, layout)
		byTerm[c] = partsOfC[i]
		for _, p := range partsOfC[i] {
			if p.pos == wholeString {
				whole[p.in] = true
			}
		}
	}
	// A string read as a whole anywhere ties all its parts: they all
	// stand for it.
	keys := make([][]part, len(cs))
	for i, ps := range partsOfC {
		for _, p := range ps {
			if whole[p.in] && leaves[p.in].K == rt.KString {
				p = part{in: p.in, pos: wholeString}
			}
			keys[i] = append(keys[i], p)
		}
	}
	groups := groupBy(cs, keys)
	// Finer than partition's when an input is read in two groups (the
	// groups by parts refine those by inputs, which are connected by
	// shared inputs).
	groupOf := make(map[int]int, len(leaves))
	for g, group := range groups {
		for _, c := range group {
			for _, v := range c.Vars() {
				if h, ok := groupOf[v]; !ok {
					groupOf[v] = g
				} else if h != g {
					return groups, byTerm, true
				}
			}
		}
	}
	return nil, nil, false
}

// partMerge builds the string inputs of a model from the parts each group
// decided.
type partMerge struct {
	seed   []rt.Value
	parts  map[*sym.Expr][]part // the parts each constraint reads
	length map[int]int          // input → length a group decided
	bytes  map[int]map[int]byte // input → position → byte a group decided
	whole  map[int]string       // input → value a group decided as a whole
}

func newPartMerge(seed []rt.Value, parts map[*sym.Expr][]part) *partMerge {
	return &partMerge{seed: seed, parts: parts, length: map[int]int{}, bytes: map[int]map[int]byte{}, whole: map[int]string{}}
}

// take records the parts of string input v that group reads, from the
// group's answer val.
func (m *partMerge) take(group []*sym.Expr, v int, val string) {
	for _, c := range group {
		for _, p := range m.parts[c] {
			switch {
			case p.in != v:
			case p.pos == wholeString:
				m.whole[v] = val
			case p.pos < 0:
				m.length[v] = len(val)
			case p.pos < len(val):
				if m.bytes[v] == nil {
					m.bytes[v] = map[int]byte{}
				}
				m.bytes[v][p.pos] = val[p.pos]
			}
		}
	}
}

// apply writes the merged string inputs into model.
func (m *partMerge) apply(model []rt.Value) {
	for v, s := range m.whole {
		model[v] = rt.Value{Str: s}
	}
	touched := map[int]bool{}
	for v := range m.length {
		touched[v] = true
	}
	for v := range m.bytes {
		touched[v] = true
	}
	for v := range touched {
		if _, ok := m.whole[v]; ok {
			continue
		}
		n, ok := m.length[v]
		if !ok {
			n = len(m.seed[v].Str)
		}
		b := make([]byte, n)
		copy(b, m.seed[v].Str)
		for pos, c := range m.bytes[v] {
			if pos < n {
				b[pos] = c
			}
		}
		model[v] = rt.Value{Str: string(b)}
	}
}
