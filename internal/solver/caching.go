package solver

import (
	"context"
	"encoding/binary"
	"slices"
	"strconv"
	"sync"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Caching answers queries without the next solver when it can: from an
// exact cache of earlier answers keyed by the set of (interned) constraints
// and the input domains, and from a counterexample cache that re-checks the
// seed and recent models against the constraints with sym's evaluator.
// Unknown answers are not cached. It is safe for concurrent use if the
// next solver is.
type Caching struct {
	next    Solver
	metrics *Metrics
	limit   int // entries of the exact cache
	recent  int // models kept per layout for the counterexample cache

	mu      sync.Mutex
	answers map[string]answer
	order   []string                // keys of answers, oldest first, for eviction
	models  map[string][][]rt.Value // per layout: recent models, newest last
}

// answer is a cached verdict; a Sat answer keeps the values of the
// constraints' inputs only.
type answer struct {
	status Status
	vars   []int
	vals   []rt.Value
}

// Default sizes of the caches.
const (
	DefaultCacheEntries = 1 << 16
	DefaultRecentModels = 32
)

// NewCaching returns the caching layer over next, remembering up to
// entries answers and recent models per input layout (defaults for values
// <= 0); m may be nil.
func NewCaching(next Solver, m *Metrics, entries, recent int) *Caching {
	if entries <= 0 {
		entries = DefaultCacheEntries
	}
	if recent <= 0 {
		recent = DefaultRecentModels
	}
	return &Caching{next: next, metrics: m, limit: entries, recent: recent,
		answers: map[string]answer{}, models: map[string][][]rt.Value{}}
}

// Solve implements Solver.
func (s *Caching) Solve(ctx context.Context, q Query) (Result, error) {
	if err := validate(q); err != nil {
		return Result{}, err
	}
	layout := layoutKey(q.Leaves)
	key := layout + constraintKey(q.Constraints)
	vars := varsOf(q.Constraints)

	if r, ok := s.lookup(key, vars, q.Seed); ok {
		s.metrics.add(func(st *Stats) { st.CacheHits++ })
		return r, nil
	}
	if model, ok := s.counterexample(layout, vars, q); ok {
		s.metrics.add(func(st *Stats) { st.ModelHits++ })
		s.store(key, layout, vars, Result{Status: Sat, Model: model})
		return Result{Status: Sat, Model: model, Cached: true}, nil
	}
	r, err := s.next.Solve(ctx, q)
	if err == nil && r.Status != Unknown {
		s.store(key, layout, vars, r)
	}
	return r, err
}

func (s *Caching) lookup(key string, vars []int, seed []rt.Value) (Result, bool) {
	s.mu.Lock()
	a, ok := s.answers[key]
	s.mu.Unlock()
	if !ok {
		return Result{}, false
	}
	if a.status == Unsat {
		return Result{Status: Unsat, Cached: true}, true
	}
	model := clone(seed)
	for i, v := range a.vars {
		model[v] = a.vals[i]
	}
	return Result{Status: Sat, Model: model, Cached: true}, true
}

// counterexample looks for the seed or a recent model, restricted to the
// constraints' inputs and completed by the seed, that satisfies the query.
func (s *Caching) counterexample(layout string, vars []int, q Query) ([]rt.Value, bool) {
	// One evaluator for every candidate, changed in place: its memory
	// is the bulk of what checking a candidate allocates.
	candidate := clone(q.Seed)
	ev := sym.NewEvaluator(candidate)
	if holdsAll(ev, q.Constraints) {
		return candidate, true
	}
	s.mu.Lock()
	recent := s.models[layout]
	s.mu.Unlock()
	for i := len(recent) - 1; i >= 0; i-- {
		for _, v := range vars {
			candidate[v] = recent[i][v]
		}
		ev.Reset()
		if holdsAll(ev, q.Constraints) && inDomain(q.Leaves, candidate) == nil {
			return candidate, true
		}
	}
	return nil, false
}

func (s *Caching) store(key, layout string, vars []int, r Result) {
	a := answer{status: r.Status}
	if r.Status == Sat {
		a.vars = vars
		a.vals = make([]rt.Value, len(vars))
		for i, v := range vars {
			a.vals[i] = r.Model[v]
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.answers[key]; !ok {
		if len(s.order) >= s.limit {
			delete(s.answers, s.order[0])
			s.order = s.order[1:]
		}
		s.order = append(s.order, key)
	}
	s.answers[key] = a
	if r.Status == Sat {
		// Copy on write: readers iterate earlier slices without the lock.
		old := s.models[layout]
		old = old[max(0, len(old)+1-s.recent):]
		ms := make([][]rt.Value, 0, len(old)+1)
		s.models[layout] = append(append(ms, old...), r.Model)
	}
}

// constraintKey identifies a set of constraints by their IDs, which are
// unique in the process.
func constraintKey(cs []*sym.Expr) string {
	ids := make([]uint64, len(cs))
	for i, c := range cs {
		ids[i] = c.ID()
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	buf := make([]byte, 0, 8*len(ids))
	for _, id := range ids {
		buf = binary.LittleEndian.AppendUint64(buf, id)
	}
	return string(buf)
}

// layoutKey identifies the domains of a layout.
func layoutKey(leaves []rt.Leaf) string {
	buf := make([]byte, 0, 4*len(leaves)+1)
	for _, l := range leaves {
		buf = append(buf, byte(l.K))
		if l.IsLen {
			buf = append(buf, 'L')
		}
		buf = strconv.AppendInt(buf, int64(l.Max), 10)
		buf = append(buf, ',')
	}
	return string(append(buf, ';'))
}
