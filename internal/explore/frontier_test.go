package explore

import (
	"slices"
	"testing"
)

// TestFrontierOrder checks the order in which each strategy hands out
// runs: generational by score, then oldest first; DFS newest first; BFS
// oldest first.
func TestFrontierOrder(t *testing.T) {
	nodes := func() []*node {
		return []*node{{run: 1, score: 0}, {run: 2, score: 3}, {run: 3, score: 1}, {run: 4, score: 3}, {run: 5, score: 0}}
	}
	for _, tt := range []struct {
		strategy Strategy
		want     []int
	}{
		{Generational, []int{2, 4, 3, 1, 5}},
		{DFS, []int{5, 4, 3, 2, 1}},
		{BFS, []int{1, 2, 3, 4, 5}},
	} {
		f, err := newFrontier(tt.strategy, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes() {
			f.push(n)
		}
		var got []int
		for n := f.pop(); n != nil; n = f.pop() {
			got = append(got, n.run)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: popped %v, want %v", tt.strategy, got, tt.want)
		}
	}
}
