package solver

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
)

// Config configures the default chain.
type Config struct {
	Options
	// Cores is the number of Z3 cores, for callers that solve from
	// several goroutines (default 1).
	Cores int
	// CacheEntries and RecentModels size the caching layer (defaults
	// DefaultCacheEntries and DefaultRecentModels).
	CacheEntries int
	RecentModels int
	// Disable names layers and stages of the chain to leave out (see
	// Layers); the names EnvDisable lists are added. Every one only
	// makes answers slower to come, never different.
	Disable []string
	// Validate puts a Validating layer on top of the chain; EnvValidate
	// can ask for it too.
	Validate Validation
}

// EnvDisable lists, comma-separated, layers and stages a chain made by
// New leaves out, for bisecting a wrong answer and for measuring what a
// layer saves: DOWSE_SOLVER_DISABLE=order,refute.
const EnvDisable = "DOWSE_SOLVER_DISABLE"

// EnvValidate makes New put a Validating layer on top of the chain: "sat"
// checks every Sat model, "all" also checks every Unsat answer against a
// bare Z3 core.
const EnvValidate = "DOWSE_SOLVER_VALIDATE"

// A Layer is a layer of the chain, or a stage of one, that can be left
// out.
type Layer struct {
	Name string
	Doc  string
}

// Layers are the names Config.Disable and EnvDisable accept, from the top
// of the chain down.
var Layers = []Layer{
	{"independence", "slice queries into groups by shared inputs (independence.go)"},
	{"caching", "exact and counterexample caches (caching.go)"},
	{"order", "comparisons between inputs and constants (order.go)"},
	{"domains", "constraints on one small-domain part each (domains.go)"},
	{"refute", "proofs of unsatisfiability without Z3 (refute*.go)"},
	{"merge", "refute: inputs stated equal become one (refute_equal.go)"},
	{"guards", "refute: guards the intervals decide are rewritten (refute_guards.go)"},
	{"neighbors", "a model next to the seed (neighbors.go)"},
	{"classes", "search over value classes of small-domain parts (classes*.go)"},
	{"pinsearch", "core: search with the divisors at the seed (core_pinsearch.go)"},
	{"linear", "core: linear integer arithmetic (core_linear.go)"},
	{"box", "core: linear, inputs at most 2^20 first (boxQuery)"},
	{"bounded", "core: linear with divisions, resource-bounded (boundedLinear)"},
	{"relax", "core: the divisors' search (core_relax.go)"},
	{"narrow", "core: 16-bit attempt on dividers and products (narrowSolve)"},
	{"seed", "core: models close to the seed (preferences, nearSeed)"},
}

// Chain is the default solver chain (see New), with shared counters. It
// is safe for concurrent use.
type Chain struct {
	top     Solver
	pool    *Pool
	bare    *Pool // the Validating layer's, if it checks Unsat answers
	metrics *Metrics
	record  io.Closer // the corpus file of EnvRecord, if recording
}

// New assembles the chain the package documentation draws, one layer at
// a time from the core up, leaving out the layers and stages cfg and
// EnvDisable disable. Slicing comes first, as in KLEE, so the caches see
// the small independent groups, which recur across queries far more
// often than whole path conditions.
func New(cfg Config) *Chain {
	m := cfg.Metrics
	if m == nil {
		m = &Metrics{}
	}
	cfg.Metrics = m
	off, unknown := disabled(append(slices.Clone(cfg.Disable), strings.Split(os.Getenv(EnvDisable), ",")...))
	if len(unknown) > 0 {
		warnUnknown.Do(func() {
			fmt.Fprintf(os.Stderr, "dowse: %s: no layer %s (see docs/solver.md)\n", EnvDisable, strings.Join(unknown, ", "))
		})
	}
	opts := cfg.Options
	opts.NoPinSearch = opts.NoPinSearch || off["pinsearch"]
	opts.NoLinear = opts.NoLinear || off["linear"]
	opts.NoBox = opts.NoBox || off["box"]
	opts.NoBoundedLinear = opts.NoBoundedLinear || off["bounded"]
	opts.NoRelax = opts.NoRelax || off["relax"]
	opts.NoNarrow = opts.NoNarrow || off["narrow"]
	opts.KeepSeed = opts.KeepSeed || off["seed"]

	c := &Chain{pool: NewPool(cfg.Cores, opts), metrics: m}
	var s Solver = c.pool
	if !off["classes"] {
		s = NewClasses(s, m)
	}
	if !off["neighbors"] {
		s = NewNeighbors(s, m)
	}
	if !off["refute"] {
		r := NewRefute(s, m)
		r.noMerge, r.noGuards = off["merge"], off["guards"]
		s = r
	}
	if !off["domains"] {
		s = NewDomains(s, m)
	}
	if !off["order"] {
		s = NewOrder(s, m)
	}
	if !off["caching"] {
		s = NewCaching(s, m, cfg.CacheEntries, cfg.RecentModels)
	}
	if !off["independence"] {
		s = NewIndependence(s, m)
	}
	switch max(cfg.Validate, validationOf(os.Getenv(EnvValidate))) {
	case ValidateAll:
		c.bare = NewPool(1, bareOptions(cfg.Options))
		s = NewValidating(s, c.bare)
	case ValidateSat:
		s = NewValidating(s, nil)
	}
	if f := recordFile(); f != nil {
		s, c.record = NewRecording(s, f), f
	}
	c.top = s
	return c
}

// warnUnknown reports unknown names to disable once per process, not once
// per chain.
var warnUnknown sync.Once

// disabled returns the set of names, less empty ones, and the names that
// are not layers.
func disabled(names []string) (map[string]bool, []string) {
	off := map[string]bool{}
	var unknown []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.ContainsFunc(Layers, func(l Layer) bool { return l.Name == n }) {
			unknown = append(unknown, n)
			continue
		}
		off[n] = true
	}
	return off, unknown
}

// Solve implements Solver.
func (c *Chain) Solve(ctx context.Context, q Query) (Result, error) {
	r, err := c.top.Solve(ctx, q)
	c.metrics.add(func(st *Stats) { st.Queries++ })
	if err == nil {
		c.metrics.verdict(r)
	}
	return r, err
}

// Warm waits until the chain's Z3 contexts are ready. Their creation
// starts with the chain, in the background; a caller that measures
// queries calls Warm first so as not to count it.
func (c *Chain) Warm() { c.pool.Warm() }

// Stats returns the chain's counters.
func (c *Chain) Stats() Stats { return c.metrics.Snapshot() }

// Close frees the chain's Z3 contexts (and closes its corpus file when
// recording); the chain must be idle.
func (c *Chain) Close() {
	c.pool.Close()
	if c.bare != nil {
		c.bare.Close()
	}
	if c.record != nil {
		c.record.Close()
	}
}
