package solver

import (
	"sync"
	"time"
)

// Stats are the counters of a solver chain. The independence layer turns
// each query into groups; every group it sends down is answered by exactly
// one of the exact cache, the counterexample cache, the order layer, the
// small-domain layer, the refutation layer, the neighbours' search, the
// class search and the core, so Groups ==
// CacheHits + ModelHits + OrderHits + DomainHits + Refuted + NeighborHits +
// ClassHits + CoreQueries when all layers share one Metrics.
type Stats struct {
	Queries       int64         // queries the chain was asked
	Sat           int64         // answered Sat
	Unsat         int64         // answered Unsat
	Unknown       int64         // answered Unknown
	Constraints   int64         // constraints the independence layer received
	SeedHits      int64         // queries whose constraints the seed already satisfies
	Groups        int64         // independent groups sent below the independence layer
	Sliced        int64         // constraints in those groups
	CacheHits     int64         // groups answered from the exact cache
	ModelHits     int64         // groups answered by the seed or a recent model
	OrderHits     int64         // groups decided by the order layer, without Z3
	DomainHits    int64         // groups decided by the small-domain layer, without Z3 (see domains.go)
	Refuted       int64         // groups refuted by the refutation layer, without Z3 (see refute.go)
	NeighborHits  int64         // groups answered by a model next to the seed, without Z3 (see neighbors.go)
	ClassHits     int64         // groups decided by the search over value classes, without Z3 (see classes.go)
	CoreQueries   int64         // groups that reached the core solver
	CoreTime      time.Duration // time spent in the core, encoding included
	Timeouts      int64         // core queries that hit their time bound
	Narrow        int64         // core queries answered Sat from a narrow encoding (see Z3.narrowSolve)
	Linear        int64         // core queries decided over the integers (see core_linear.go)
	Relaxed       int64         // core queries refuted by their relaxation (see core_relax.go)
	Pinned        int64         // core queries decided with their divisors' inputs fixed (see core_relax.go)
	PinSearched   int64         // core queries with divisions by inputs answered by a small search, without Z3 (see core_pinsearch.go)
	FloatQueries  int64         // core queries with float terms, decided in Z3's floating-point theory (see core_float.go)
	FloatTime     time.Duration // time of those queries, included in CoreTime
	FloatSearched int64         // float queries answered by the candidates' search, without Z3 (see core_floatsearch.go)
}

// Hits is the number of groups answered without the core solver.
func (s Stats) Hits() int64 { return s.CacheHits + s.ModelHits }

// HitRate is the share of groups answered without the core solver.
func (s Stats) HitRate() float64 {
	if s.Groups == 0 {
		return 0
	}
	return float64(s.Hits()) / float64(s.Groups)
}

// Metrics collects Stats from the layers of a chain. It is safe for
// concurrent use; a nil *Metrics discards everything.
type Metrics struct {
	mu sync.Mutex
	s  Stats
}

// Snapshot returns the current counters.
func (m *Metrics) Snapshot() Stats {
	if m == nil {
		return Stats{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s
}

func (m *Metrics) add(f func(*Stats)) {
	if m == nil {
		return
	}
	m.mu.Lock()
	f(&m.s)
	m.mu.Unlock()
}

func (m *Metrics) verdict(r Result) {
	m.add(func(s *Stats) {
		switch r.Status {
		case Sat:
			s.Sat++
		case Unsat:
			s.Unsat++
		default:
			s.Unknown++
		}
	})
}
