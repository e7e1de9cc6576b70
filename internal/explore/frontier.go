package explore

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
)

// Strategy orders the expansion of runs.
type Strategy string

// The strategies. All expand a run by negating each branch after its
// generation bound; they differ in which run is expanded next.
const (
	Generational Strategy = "generational" // most branch outcomes covered first, then oldest (SAGE)
	DFS          Strategy = "dfs"          // newest run first
	BFS          Strategy = "bfs"          // oldest run first
	Random       Strategy = "random"       // uniformly at random, from the seed
)

// Strategies lists the strategies by name.
var Strategies = []Strategy{Generational, DFS, BFS, Random}

// frontier holds the runs still to be expanded.
type frontier interface {
	push(*node)
	pop() *node // nil when empty
	len() int
}

func newFrontier(s Strategy, seed int64) (frontier, error) {
	switch s {
	case Generational, "":
		return &scored{}, nil
	case DFS:
		return &stack{}, nil
	case BFS:
		return &queue{}, nil
	case Random:
		return &random{rng: rand.New(rand.NewPCG(uint64(seed), 0x646f777365))}, nil
	}
	return nil, fmt.Errorf("unknown search strategy %q (want generational, dfs, bfs or random)", s)
}

// scored pops the run with the highest score, the earliest of equals.
type scored struct{ h nodeHeap }

func (s *scored) push(n *node) { heap.Push(&s.h, n) }
func (s *scored) len() int     { return len(s.h) }
func (s *scored) pop() *node {
	if len(s.h) == 0 {
		return nil
	}
	return heap.Pop(&s.h).(*node)
}

type nodeHeap []*node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score > h[j].score
	}
	return h[i].run < h[j].run
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return n
}

type stack struct{ s []*node }

func (s *stack) push(n *node) { s.s = append(s.s, n) }
func (s *stack) len() int     { return len(s.s) }
func (s *stack) pop() *node {
	if len(s.s) == 0 {
		return nil
	}
	n := s.s[len(s.s)-1]
	s.s[len(s.s)-1] = nil
	s.s = s.s[:len(s.s)-1]
	return n
}

type queue struct{ q []*node }

func (q *queue) push(n *node) { q.q = append(q.q, n) }
func (q *queue) len() int     { return len(q.q) }
func (q *queue) pop() *node {
	if len(q.q) == 0 {
		return nil
	}
	n := q.q[0]
	q.q[0] = nil
	q.q = q.q[1:]
	return n
}

type random struct {
	s   []*node
	rng *rand.Rand
}

func (r *random) push(n *node) { r.s = append(r.s, n) }
func (r *random) len() int     { return len(r.s) }
func (r *random) pop() *node {
	if len(r.s) == 0 {
		return nil
	}
	i := r.rng.IntN(len(r.s))
	n := r.s[i]
	last := len(r.s) - 1
	r.s[i] = r.s[last]
	r.s[last] = nil
	r.s = r.s[:last]
	return n
}
