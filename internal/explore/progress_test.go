package explore

import (
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// The live counts grow with every batch and end at the report's: runs,
// paths, failures, and the branch outcomes covered but the input
// construction's choices.
func TestProgressCounts(t *testing.T) {
	var seen []Counts
	cfg := Config{Progress: func(c Counts) { seen = append(seen, c) }}
	rep := explore(t, find, cfg, &fakeExec{p: find, workers: 2}, &bruteSolver{r: 4})
	if len(seen) < 2 {
		t.Fatalf("%d progress calls, want one per batch (several)", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		a, b := seen[i-1], seen[i]
		if b.Runs < a.Runs || b.Paths < a.Paths || b.Covered < a.Covered || b.Failures < a.Failures {
			t.Errorf("counts went down: %+v then %+v", a, b)
		}
	}
	covered := 0
	for _, b := range rep.Covered {
		if b.Site != rt.InputSite {
			covered++
		}
	}
	want := Counts{Runs: rep.Runs, Paths: rep.Paths, Covered: covered, Failures: len(rep.Failures)}
	if last := seen[len(seen)-1]; last != want {
		t.Errorf("last counts %+v, want the report's %+v", last, want)
	}
}

// With Counted, the outcomes of the other sites are not covered.
func TestProgressCounted(t *testing.T) {
	var last Counts
	cfg := Config{Progress: func(c Counts) { last = c }, Counted: func(site uint32) bool { return site != 4 }}
	rep := explore(t, find, cfg, &fakeExec{p: find}, &bruteSolver{r: 4})
	covered, all := 0, 0
	for _, b := range rep.Covered {
		all++
		if b.Site != 4 {
			covered++
		}
	}
	if last.Covered != covered || covered == all {
		t.Errorf("covered %d, want %d of the %d outcomes seen (site 4's left out)", last.Covered, covered, all)
	}
}

// Across the searches of ExploreRaising the runs add up.
func TestProgressRunsBefore(t *testing.T) {
	var got Counts
	f := withRunsBefore(func(c Counts) { got = c }, 40)
	f(Counts{Runs: 2, Paths: 1})
	if got != (Counts{Runs: 42, Paths: 1}) {
		t.Errorf("got %+v, want 42 runs", got)
	}
	if withRunsBefore(nil, 3) != nil {
		t.Error("a nil function was wrapped")
	}
}
