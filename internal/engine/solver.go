package engine

import (
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/solver"
)

// newSolver returns a fresh solver chain for one target, and the function
// that frees it.
func newSolver(timeout time.Duration) (query.Solver, func()) {
	c := solver.New(solver.Config{Options: solver.Options{Timeout: timeout}})
	return c, c.Close
}
