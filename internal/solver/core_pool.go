package solver

import (
	"context"
)

// Pool shares queries among several Z3 cores, each used by one goroutine
// at a time, so that it is safe for concurrent use.
type Pool struct {
	free  chan *Z3
	cores []*Z3
}

// NewPool returns a pool of n cores (at least one) with the given options.
func NewPool(n int, opts Options) *Pool {
	n = max(n, 1)
	p := &Pool{free: make(chan *Z3, n)}
	for range n {
		core := NewZ3(opts)
		p.cores = append(p.cores, core)
		p.free <- core
	}
	return p
}

// Solve implements Solver, waiting for a free core.
func (p *Pool) Solve(ctx context.Context, q Query) (Result, error) {
	select {
	case core := <-p.free:
		defer func() { p.free <- core }()
		return core.Solve(ctx, q)
	case <-ctx.Done():
		return unknown("canceled", false), ctx.Err()
	}
}

// Warm waits until every core has its first Z3 context ready (see
// Z3.Warm), waiting for busy cores first.
func (p *Pool) Warm() {
	for range p.cores {
		core := <-p.free
		defer func() { p.free <- core }()
		core.Warm()
	}
}

// Close frees the cores; the pool must be idle.
func (p *Pool) Close() {
	for _, c := range p.cores {
		c.Close()
	}
}
