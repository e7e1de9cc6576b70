package solver

import (
	"sync"
	"time"
)

// Stats are the counters of a solver chain.
type Stats struct {
	Queries     int64         // queries the chain was asked
	Sat         int64         // answered Sat
	Unsat       int64         // answered Unsat
	Unknown     int64         // answered Unknown
	Groups      int64         // independent constraint groups that needed solving
	Constraints int64         // constraints received
	Sliced      int64         // constraints left after independence slicing
	CacheHits   int64         // groups answered from the exact cache
	ModelHits   int64         // groups answered by an earlier model or the seed
	CoreQueries int64         // groups that reached the core solver
	CoreTime    time.Duration // time spent in the core, encoding included
	Timeouts    int64         // core queries that hit their time bound
}

// Hits is the number of groups answered without the core solver.
func (s Stats) Hits() int64 { return s.CacheHits + s.ModelHits }

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
