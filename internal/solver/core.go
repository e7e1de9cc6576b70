package solver

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dowse-go/dowse/internal/solver/z3"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// DefaultTimeout bounds a query when neither the options, the query nor
// the context say otherwise.
const DefaultTimeout = 10 * time.Second

// Options configure the Z3 core.
type Options struct {
	// Timeout bounds each query (default DefaultTimeout). A query's own
	// Timeout and its context's deadline can only shorten it.
	Timeout time.Duration
	// KeepSeed disables the search for a model close to the seed: only
	// inputs the constraints do not mention keep their seed values.
	KeepSeed bool
	// ContextQueries is how many queries share one Z3 context before it is
	// replaced (default DefaultContextQueries). Z3 keeps every term of a
	// context until the context is freed, so replacing it bounds memory.
	// A context's history (the terms made for earlier queries) can steer
	// Z3 to a different model of the same query, so models are a
	// deterministic function of the sequence of queries a core receives;
	// with ContextQueries = 1 they depend on the query alone, at about 3ms
	// more per query (a fresh context starts with cold caches).
	ContextQueries int
	// Simple selects Z3's general SMT solver instead of its QF_BV tactic
	// solver, the default, which was faster on the benchmark's mix.
	Simple bool
	// NoLinear turns off the linear layer (core_linear.go): every query is
	// encoded as bit-vectors. For measuring the layer and as a fallback.
	NoLinear bool
	// NoRelax turns off the refutation of queries with dividers over the
	// integers (core_relax.go).
	NoRelax bool
	// NoPinSearch turns off the small search that decides the divisors'
	// search's fixed queries before Z3 does (core_pinsearch.go).
	NoPinSearch bool
	// NoBox turns off the linear layer's first try, with every input of
	// a query whose terms may wrap around at most 2^20 in magnitude
	// (boxQuery).
	NoBox bool
	// NoBoundedLinear turns off the linear layer's resource-bounded
	// check of queries with divisions (boundedLinear): they go to the
	// divisors' search and the bit-vector encoding.
	NoBoundedLinear bool
	// NoNarrow turns off the 16-bit attempt on queries with a divider or
	// a product of unknowns (narrowSolve).
	NoNarrow bool
	// Metrics, if not nil, receives the core's counters.
	Metrics *Metrics
}

// DefaultContextQueries is the default of Options.ContextQueries.
const DefaultContextQueries = 64

// maxPreferenceRounds bounds the checks spent looking for a model close to
// the seed before solving without preferences.
const maxPreferenceRounds = 4

// Z3 is the core solver: it encodes a query in the theory of bit-vectors
// and decides it with Z3. A Z3 is not safe for concurrent use; create one
// per goroutine, or use a Pool. Given the same sequence of queries, a Z3
// gives the same sequence of answers (barring time-outs).
type Z3 struct {
	opts  Options
	cur   *z3.Context
	used  int
	spare chan prepared // the next context, created in the background
	// lia is the QF_LIA solver of the linear layer in cur, kept between
	// queries (each in a scope of its own): creating one costs about a
	// millisecond, more than deciding most linear queries.
	lia *z3.Solver
	// div is the QF_LIA solver of linear queries with divisions and
	// relax that of relaxed queries (core_relax.go) in cur, kept the same way,
	// each with a resource bound (divisionWork) fixed when made, apart
	// from lia so that they leave the linear layer's models as they were.
	div, relax *z3.Solver
}

// NewZ3 returns a core solver.
func NewZ3(opts Options) *Z3 {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.ContextQueries <= 0 {
		opts.ContextQueries = DefaultContextQueries
	}
	s := &Z3{opts: opts}
	s.prepare()
	return s
}

// prepared is a context made in the background with its QF_LIA solver:
// together they take a few milliseconds to create (more while the
// machine is busy), which the first query would otherwise wait for.
type prepared struct {
	z   *z3.Context
	lia *z3.Solver // nil without the linear layer, or if Z3 could not make it
}

// prepare starts creating the next context in the background.
func (s *Z3) prepare() {
	s.spare = make(chan prepared, 1)
	go func(ch chan<- prepared, linear bool) {
		p := prepared{z: z3.NewContext()}
		if linear {
			p.lia, _ = p.z.NewSolverFor("QF_LIA", 0)
		}
		ch <- p
	}(s.spare, !s.opts.NoLinear)
}

// Warm waits until the solver's next context is ready, so that a caller
// that measures queries does not count its creation, which an
// exploration overlaps with starting its workers.
func (s *Z3) Warm() {
	if s.spare != nil {
		p := <-s.spare
		s.spare <- p
	}
}

// Close frees the solver's Z3 contexts.
func (s *Z3) Close() {
	s.closeLIA()
	if s.cur != nil {
		s.cur.Close()
		s.cur = nil
	}
	if s.spare != nil {
		p := <-s.spare
		if p.lia != nil {
			p.lia.Close()
		}
		p.z.Close()
		s.spare = nil
	}
}

// context returns the context for the next query, replacing a used-up one
// and preparing its successor in the background so that context creation
// overlaps with the caller's work.
func (s *Z3) context() *z3.Context {
	if s.cur != nil && s.used < s.opts.ContextQueries {
		s.used++
		return s.cur
	}
	if s.cur != nil {
		s.closeLIA()
		go s.cur.Close()
	}
	if s.spare == nil {
		s.prepare()
	}
	p := <-s.spare
	s.cur, s.lia = p.z, p.lia
	s.prepare()
	s.used = 1
	return s.cur
}

// closeLIA releases the kept QF_LIA solver.
func (s *Z3) closeLIA() {
	if s.lia != nil {
		s.lia.Close()
		s.lia = nil
	}
	for _, sv := range []**z3.Solver{&s.div, &s.relax} {
		if *sv != nil {
			(*sv).Close()
			*sv = nil
		}
	}
}

// liaSolver returns the QF_LIA solver of context z, created on first use.
func (s *Z3) liaSolver(z *z3.Context) (*z3.Solver, error) {
	if s.lia == nil {
		sv, err := z.NewSolverFor("QF_LIA", 0)
		if err != nil {
			return nil, err
		}
		s.lia = sv
	}
	return s.lia, nil
}

// limitedSolver returns *sv, a QF_LIA solver of context z with checks
// bounded by divisionWork and a quarter of the time bound, made on first
// use.
func (s *Z3) limitedSolver(z *z3.Context, sv **z3.Solver) (*z3.Solver, error) {
	if *sv == nil {
		n, err := z.NewLimitedSolverFor("QF_LIA", s.opts.Timeout/4, divisionWork)
		if err != nil {
			return nil, err
		}
		*sv = n
	}
	return *sv, nil
}

// discard makes the next query use a new context (after an interrupted
// check, whose context may stay cancelled).
func (s *Z3) discard() { s.used = s.opts.ContextQueries }

// Solve implements Solver.
func (s *Z3) Solve(ctx context.Context, q Query) (Result, error) {
	if err := validate(q); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return unknown("canceled", false), err
	}
	start := time.Now()
	defer func() {
		el := time.Since(start)
		s.opts.Metrics.add(func(st *Stats) { st.CoreQueries++; st.CoreTime += el })
	}()

	timeout := s.opts.Timeout
	if q.Timeout > 0 {
		timeout = min(timeout, q.Timeout)
	}
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(d))
		if timeout <= 0 {
			return unknown("timeout", true), nil
		}
	}

	z := s.context()
	res, err := s.solve(ctx, z, q, timeout)
	if res.Status == Unknown || err != nil {
		s.discard()
	}
	if res.TimedOut {
		s.opts.Metrics.add(func(st *Stats) { st.Timeouts++ })
	}
	return res, err
}

func (s *Z3) solve(ctx context.Context, z *z3.Context, q Query, timeout time.Duration) (Result, error) {
	if hasFloat(q) {
		return s.solveFloat(ctx, z, q, timeout)
	}
	// Divisions: with the divisors' inputs at their seed values (or the
	// divisors constants), small values of the other inputs take every
	// remainder (core_pinsearch.go). The answer for the seed's divisors is
	// the divisors' search's first step too.
	seedSearch := Unknown
	if !s.opts.NoPinSearch && divides(q.Constraints) {
		model, st := pinnedSearch(q, seedPins(q, divisorInputs(q.Constraints)))
		if st == Sat {
			s.opts.Metrics.add(func(st *Stats) { st.PinSearched++ })
			return Result{Status: Sat, Model: model}, nil
		}
		seedSearch = st
	}
	if !s.opts.NoLinear {
		// decided counts a query the linear layer answered.
		decided := func(res Result, err error) (Result, error) {
			s.opts.Metrics.add(func(st *Stats) { st.Linear++ })
			return res, err
		}
		l, ok := linearQuery(q)
		// Divisions (by constants, or by terms of one value) are exact
		// over the integers, but a few such queries keep the integer
		// solver searching for seconds where bit-blasting answers at
		// once: they get a quarter of the time bound, then go to the
		// bit-vector encoding.
		divides := ok && len(l.divs) > 0
		if ok && len(l.wraps) == 0 && !divides {
			return decided(s.linearSolve(ctx, z, q, l, timeout))
		}
		// Small values first: a model within the box is a model, and
		// reads better than the arbitrary ones of an encoding where
		// terms wrap around. Only worth a try when terms that may wrap
		// were all that stood in the way (an accepted query has no other
		// obstacle: nonlinear is only set when the analysis fails).
		if !l.nonlinear && !s.opts.NoBox {
			if b, inBox := boxQuery(q, smallBox); inBox {
				if res, err := s.linearSolve(ctx, z, q, b, timeout); err != nil || res.Status == Sat {
					return decided(res, err)
				}
			}
		}
		if ok && !divides {
			return decided(s.linearSolve(ctx, z, q, l, timeout))
		}
		if divides && !s.opts.NoBoundedLinear {
			if res, err := s.boundedLinear(ctx, z, q, l); err != nil || res.Status != Unknown || ctx.Err() != nil {
				return decided(res, err)
			}
		}
	}
	// A query with divisions by inputs is decided over the integers if
	// its relaxation has no solution or its divisors few values
	// (core_relax.go).
	if !s.opts.NoRelax && nonlinear(q.Constraints) {
		if l, ok := relaxedQuery(q); ok {
			if res, ok := s.divisorSearch(ctx, z, q, l, timeout, seedSearch); ok {
				return res, nil
			}
		}
	}
	en := newEncoder(z, q.Leaves)
	formulas, err := en.constraints(q.Constraints)
	var u *unsupportedError
	if errors.As(err, &u) {
		return unknown("unsupported: "+u.msg, false), nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("solver: %w", err)
	}

	newSolver := z.NewSolver
	if s.opts.Simple {
		newSolver = z.NewSimpleSolver
	}
	sv, err := newSolver(timeout)
	if err != nil {
		return Result{}, fmt.Errorf("solver: %w", err)
	}
	defer sv.Close()
	for _, f := range formulas {
		sv.Assert(f)
	}
	for _, f := range en.domain {
		sv.Assert(f)
	}
	for _, f := range en.lemmas {
		sv.Assert(f)
	}
	// Preferences cost Z3 a check per round; with a divider or a product
	// of two unknowns in the query each check bit-blasts it again (about
	// 0.3 s per satisfiable query on a hash table's "key % n" against 0.06 s
	// without). Such queries get one check and a model moved towards the
	// seed by evaluation instead (nearSeed).
	heavy := nonlinear(q.Constraints)
	if heavy && !s.opts.NoNarrow {
		if res, ok := s.narrowSolve(ctx, z, q, timeout); ok {
			return res, nil
		}
	}
	var prefs []preference
	if !s.opts.KeepSeed && !heavy {
		prefs = en.preferences(q.Seed)
		for _, p := range prefs {
			sv.Assert(z.Implies(p.lit, p.cond))
		}
	}
	if err := z.Err(); err != nil {
		return Result{}, fmt.Errorf("solver: assert: %w", err)
	}

	return s.check(ctx, z, sv, prefs, timeout, func() (Result, error) {
		res, err := s.model(en, sv, q.Seed)
		if err == nil && !s.opts.KeepSeed {
			nearSeed(q, res.Model)
		}
		return res, err
	})
}

// boundedLinear decides the linear query l as linearSolve does, in the
// solver whose checks are bounded (limitedSolver): a check that runs out
// makes the answer Unknown, and leaves the context usable.
func (s *Z3) boundedLinear(ctx context.Context, z *z3.Context, q Query, l *linear) (Result, error) {
	sv, err := s.limitedSolver(z, &s.div)
	if err != nil {
		return Result{}, fmt.Errorf("solver: %w", err)
	}
	return s.linearSolveIn(ctx, z, sv, q, l, 2*s.opts.Timeout)
}

// divisionWork bounds, in Z3's resource units, each check of a linear
// query with divisions (boundedLinear). On the hash table's recorded
// queries, 20,000 to 100,000 decide all but the divisibility puzzles
// (x % 2 == 0 && x % 4 == 3) the integer solver can search for seconds;
// a count, unlike a time bound, gives the same answers on a loaded
// machine.
const divisionWork = 50_000

// check decides the assertions of sv, preferring the conditions of prefs
// (given up in turn, by unsat cores, for at most maxPreferenceRounds
// rounds), within timeout; readModel reads the model of a Sat answer.
func (s *Z3) check(ctx context.Context, z *z3.Context, sv *z3.Solver, prefs []preference, timeout time.Duration, readModel func() (Result, error)) (Result, error) {
	// Bound the whole query, all preference rounds included.
	var expired atomic.Bool
	interrupt, done := interrupter(z)
	defer done()
	timer := time.AfterFunc(timeout, func() { expired.Store(true); interrupt() })
	defer timer.Stop()
	stop := context.AfterFunc(ctx, interrupt)
	defer stop()

	lits := make([]z3.AST, len(prefs))
	for i, p := range prefs {
		lits[i] = p.lit
	}
	// Decide first, without preferences: most negated branches of a path
	// are infeasible, and an unsat answer needs no model.
	if len(lits) > 0 {
		r, err := sv.Check()
		if err != nil {
			return Result{}, fmt.Errorf("solver: %w", err)
		}
		if r == z3.Unsat {
			return Result{Status: Unsat}, nil
		}
	}
	for round := 0; ; round++ {
		if round == maxPreferenceRounds {
			lits = nil
		}
		r, err := sv.Check(lits...)
		if err != nil {
			return Result{}, fmt.Errorf("solver: %w", err)
		}
		switch r {
		case z3.Sat:
			return readModel()
		case z3.Unknown:
			why := sv.ReasonUnknown()
			if err := ctx.Err(); err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					return unknown("timeout", true), nil
				}
				return unknown("canceled", false), err
			}
			if expired.Load() || strings.Contains(why, "timeout") {
				return unknown("timeout", true), nil
			}
			return unknown("z3: "+why, false), nil
		}
		// Unsat: without assumptions, or with an empty core, the
		// constraints themselves are unsatisfiable; otherwise give up the
		// preferences in the core and try again.
		if len(lits) == 0 {
			return Result{Status: Unsat}, nil
		}
		core := sv.UnsatCore()
		if len(core) == 0 {
			return Result{Status: Unsat}, nil
		}
		lits = without(lits, core)
	}
}

// without returns lits minus the members of core.
func without(lits, core []z3.AST) []z3.AST {
	drop := make(map[z3.AST]bool, len(core))
	for _, c := range core {
		drop[c] = true
	}
	out := lits[:0:0]
	for _, l := range lits {
		if !drop[l] {
			out = append(out, l)
		}
	}
	return out
}

func (s *Z3) model(en *encoder, sv *z3.Solver, seed []rt.Value) (Result, error) {
	m, err := sv.Model()
	if err != nil {
		return Result{}, fmt.Errorf("solver: %w", err)
	}
	defer m.Close()
	vals := clone(seed)
	if err := en.model(m, vals); err != nil {
		return Result{}, fmt.Errorf("solver: read model: %w", err)
	}
	return Result{Status: Sat, Model: vals}, nil
}

// validate checks the shape of a query.
func validate(q Query) error {
	if len(q.Seed) != len(q.Leaves) {
		return fmt.Errorf("solver: %d seed values for %d leaves", len(q.Seed), len(q.Leaves))
	}
	for i, c := range q.Constraints {
		if c == nil || c.Kind() != rt.KBool {
			return fmt.Errorf("solver: constraint %d is not a bool term", i)
		}
		for _, v := range c.Vars() {
			if v >= len(q.Leaves) {
				return fmt.Errorf("solver: constraint %d mentions input %d of %d", i, v, len(q.Leaves))
			}
		}
	}
	return nil
}

// divides reports whether a constraint of cs divides or takes a
// remainder.
func divides(cs []*sym.Expr) bool {
	return anyTerm(cs, func(e *sym.Expr) bool { return e.Op() == rt.OpQuo || e.Op() == rt.OpRem })
}

// nonlinear reports whether a constraint divides by, or takes the
// remainder by, a term that is not a constant, or multiplies two such
// terms: the operations Z3 has to bit-blast into large circuits.
func nonlinear(cs []*sym.Expr) bool {
	return anyTerm(cs, func(e *sym.Expr) bool {
		switch e.Op() {
		case rt.OpQuo, rt.OpRem:
			return !e.Arg(1).IsConst()
		case rt.OpMul:
			return !e.Arg(0).IsConst() && !e.Arg(1).IsConst()
		}
		return false
	})
}

// anyTerm reports whether is holds for a term of cs (each shared subterm
// visited once).
func anyTerm(cs []*sym.Expr, is func(*sym.Expr) bool) bool {
	seen := map[*sym.Expr]bool{}
	var walk func(e *sym.Expr) bool
	walk = func(e *sym.Expr) bool {
		if seen[e] {
			return false
		}
		seen[e] = true
		if is(e) {
			return true
		}
		for i := range e.NumArgs() {
			if walk(e.Arg(i)) {
				return true
			}
		}
		return false
	}
	for _, c := range cs {
		if walk(c) {
			return true
		}
	}
	return false
}

// nearSeed moves model towards q's seed: one input at a time, in leaf
// order, an input that differs from the seed takes the seed's value back
// if every constraint still holds (checked by evaluation, so the model
// stays a model).
//
// An integer input that cannot take the seed's value is then moved
// towards it by bisection between the two, keeping a value on which
// every constraint holds: go-humanize's v < 0 && v > -1000 && (v <= -100
// || v >= 100), seed 100, gets -100 where Z3 had given -961. The result
// is a model whatever the constraints (only values that hold are kept),
// and lies next to a value that does not hold, or at the seed.
func nearSeed(q Query, model []rt.Value) {
	holds := func() bool {
		ev := sym.NewEvaluator(model)
		for _, c := range q.Constraints {
			if ok, err := ev.Holds(c); err != nil || !ok {
				return false
			}
		}
		return true
	}
	for i := range model {
		if model[i] == q.Seed[i] {
			continue
		}
		was := model[i]
		model[i] = q.Seed[i]
		if holds() {
			continue
		}
		model[i] = was
		if i >= len(q.Leaves) || !q.Leaves[i].K.Integer() || q.Leaves[i].Float || q.Leaves[i].IsLen {
			continue
		}
		// Bisect between the seed (fails) and the model (holds), in
		// the kind's order.
		k := q.Leaves[i].K
		fails, ok := ordered(k, q.Seed[i].Bits), ordered(k, was.Bits)
		apart := func() bool { // |fails - ok| > 1, without overflow
			if fails < ok {
				return uint64(ok)-uint64(fails) > 1
			}
			return uint64(fails)-uint64(ok) > 1
		}
		for apart() {
			mid := fails/2 + ok/2 + (fails%2+ok%2)/2 // no overflow
			model[i] = rt.Value{Bits: unordered(k, mid)}
			if holds() {
				ok = mid
			} else {
				fails = mid
			}
		}
		model[i] = rt.Value{Bits: unordered(k, ok)}
	}
}

// narrowBits bounds the width narrowSolve tries: beyond it the circuits
// are not much smaller than the real ones.
const narrowBits = 32

// narrowWidth is the width narrowSolve encodes q's integers with: 16 bits,
// or enough for every constant of the query with two bits to spare; 0 if
// that is narrowBits or more.
func narrowWidth(cs []*sym.Expr) uint {
	w := uint(16)
	seen := map[*sym.Expr]bool{}
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		if e.IsConst() && e.Kind().Integer() {
			v := e.Bits()
			if e.Kind().Signed() && e.Signed() < 0 {
				v = uint64(-(e.Signed() + 1)) // ^v: the bits a negative value needs
			}
			w = max(w, uint(bits.Len64(v))+2)
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	for _, c := range cs {
		walk(c)
	}
	if w >= narrowBits {
		return 0
	}
	return w
}

// narrowSolve looks for a model of a query with a divider or a product of
// unknowns in a narrow encoding first (integers of narrowWidth bits, so
// their circuits are a fraction of the 64-bit ones): a model found there is
// extended to the inputs' kinds and kept only if every constraint holds on
// it by evaluation, with Go's semantics. ok is false when there is no such
// model (the narrow encoding has none, or it is not a model of q), and the
// query is then decided in the real encoding: narrowing only ever makes a
// satisfiable query faster, it never decides one.
func (s *Z3) narrowSolve(ctx context.Context, z *z3.Context, q Query, timeout time.Duration) (Result, bool) {
	w := narrowWidth(q.Constraints)
	if w == 0 {
		return Result{}, false
	}
	en := newEncoder(z, q.Leaves)
	en.narrow = w
	formulas, err := en.constraints(q.Constraints)
	if err != nil {
		return Result{}, false
	}
	sv, err := z.NewSolver(timeout / 4)
	if err != nil {
		return Result{}, false
	}
	defer sv.Close()
	if !assertAll(z, sv, formulas, en.domain, en.lemmas) {
		return Result{}, false
	}
	interrupt, done := interrupter(z)
	defer done()
	stop := context.AfterFunc(ctx, interrupt)
	defer stop()
	if r, err := sv.Check(); err != nil || r != z3.Sat || ctx.Err() != nil {
		return Result{}, false
	}
	res, err := s.model(en, sv, q.Seed)
	if err != nil {
		return Result{}, false
	}
	ev := sym.NewEvaluator(res.Model)
	for _, c := range q.Constraints {
		if ok, err := ev.Holds(c); err != nil || !ok {
			return Result{}, false
		}
	}
	if inDomain(q.Leaves, res.Model) != nil {
		return Result{}, false
	}
	if !s.opts.KeepSeed {
		nearSeed(q, res.Model)
	}
	s.opts.Metrics.add(func(st *Stats) { st.Narrow++ })
	return res, true
}

// interrupter returns a function that interrupts z while the query that
// asked for it runs, and done, which the query calls when it ends: from
// then on the function does nothing. A timer or context callback that
// fires as its query ends (time.Timer.Stop and context.AfterFunc's stop
// do not wait for a callback already running) would otherwise interrupt
// the next query on the same context, which then ends "canceled".
func interrupter(z *z3.Context) (interrupt, done func()) {
	var mu sync.Mutex
	ended := false
	interrupt = func() {
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			z.Interrupt()
		}
	}
	done = func() {
		mu.Lock()
		ended = true
		mu.Unlock()
	}
	return interrupt, done
}

// assertAll asserts every formula of groups in sv and reports whether Z3
// accepted them.
func assertAll(z *z3.Context, sv *z3.Solver, groups ...[]z3.AST) bool {
	for _, fs := range groups {
		for _, f := range fs {
			sv.Assert(f)
		}
	}
	return z.Err() == nil
}
