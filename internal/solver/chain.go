package solver

import (
	"context"
	"io"
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
}

// Chain is the default solver chain, Independence → Caching → Order →
// Domains → Refute → Neighbors → Classes → Z3, with shared counters. It is safe for concurrent use.
type Chain struct {
	top     Solver
	pool    *Pool
	metrics *Metrics
	record  io.Closer // the corpus file of EnvRecord, if recording
}

// New assembles the default chain. Slicing comes first, as in KLEE, so the
// caches see the small independent groups, which recur across queries far
// more often than whole path conditions.
func New(cfg Config) *Chain {
	m := cfg.Metrics
	if m == nil {
		m = &Metrics{}
	}
	cfg.Metrics = m
	pool := NewPool(cfg.Cores, cfg.Options)
	var top Solver = NewIndependence(NewCaching(NewOrder(NewDomains(NewRefute(NewNeighbors(NewClasses(pool, m), m), m), m), m), m, cfg.CacheEntries, cfg.RecentModels), m)
	c := &Chain{pool: pool, metrics: m}
	if f := recordFile(); f != nil {
		top, c.record = NewRecording(top, f), f
	}
	c.top = top
	return c
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
	if c.record != nil {
		c.record.Close()
	}
}
