package explore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dowse-go/dowse/rt"
)

// Under a whole-run budget, the time bound that stops a search is the
// budget's (Config.Budgeted), and a search that stops finding anything
// ends at a plateau (Config.Plateau) — a fuzz target included, which
// otherwise mutates until its time bound.
func TestBudgetStops(t *testing.T) {
	tests := []struct {
		name   string
		p      *program
		cfg    Config
		target Target
		stop   string
	}{
		{name: "budget", p: triangle, cfg: Config{MaxTime: 1, Budgeted: true}, stop: ReasonBudget},
		{name: "max-time", p: triangle, cfg: Config{MaxTime: 1}, stop: ReasonMaxTime},
		{name: "plateau", p: concrete, cfg: Config{MaxTime: time.Minute, Plateau: true}, target: Target{Fuzz: true}, stop: ReasonPlateau},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := tt.target
			target.Name = tt.p.name
			rep, err := Explore(context.Background(), tt.cfg, target, &fakeExec{p: tt.p, workers: 2}, &bruteSolver{r: 4})
			if err != nil {
				t.Fatal(err)
			}
			if rep.StopReason != tt.stop || !slices.Contains(rep.Incomplete, tt.stop) || rep.Exhaustive {
				t.Errorf("stop %q, incomplete %v, exhaustive %v; want %q", rep.StopReason, rep.Incomplete, rep.Exhaustive, tt.stop)
			}
			if tt.stop == ReasonPlateau && rep.Runs < plateauRuns {
				t.Errorf("%d runs: want at least %d without anything new", rep.Runs, plateauRuns)
			}
		})
	}
}

// A search that continues another (Resume) starts from its inputs,
// counts its runs, and does not count again the paths it knew.
func TestResume(t *testing.T) {
	ex := &fakeExec{p: find, workers: 2}
	first := explore(t, find, Config{}, ex, &bruteSolver{r: 4})
	if !first.Exhaustive || first.Paths == 0 {
		t.Fatalf("first search: exhaustive %v, %d paths", first.Exhaustive, first.Paths)
	}
	r := ResumeFrom(first)
	if len(r.Inputs) == 0 || len(r.Known) != first.Paths {
		t.Fatalf("resume: %d inputs, %d known paths; want inputs and the first's %d paths", len(r.Inputs), len(r.Known), first.Paths)
	}
	rep, err := Explore(context.Background(), Config{}, r.Target(Target{Name: find.name}), ex, &bruteSolver{r: 4})
	if err != nil {
		t.Fatal(err)
	}
	own := rep.Runs
	r.Into(rep)
	if rep.Paths != first.Paths || rep.Runs != first.Runs+own || len(rep.Failures) != len(first.Failures) {
		t.Errorf("resumed: %d paths, %d runs, %d failures; want the first's %d paths, %d+%d runs, %d failures",
			rep.Paths, rep.Runs, len(rep.Failures), first.Paths, first.Runs, own, len(first.Failures))
	}
	if EarlierRun(rep) != nil {
		t.Errorf("a search of this run is taken for an earlier run's")
	}
}

// aloneExec is a fakeExec that runs inputs alone too, recording whether
// it was given a deadline.
type aloneExec struct {
	fakeExec
	deadline bool
}

func (a *aloneExec) RunAlone(ctx context.Context, reqs []rt.Request) ([]RunOutcome, error) {
	_, a.deadline = ctx.Deadline()
	return a.Run(ctx, reqs)
}

// What a search does once it has stopped (running failures alone) is
// bounded by its time bound and a grace, not left open.
func TestFinishBounded(t *testing.T) {
	ex := &aloneExec{fakeExec: fakeExec{p: find, workers: 2}}
	rep := explore(t, find, Config{MaxTime: time.Minute}, ex, &bruteSolver{r: 4})
	if len(rep.Failures) == 0 {
		t.Fatal("no failures to run alone")
	}
	if !ex.deadline {
		t.Error("failures were run alone with no deadline")
	}
}

// cutExec is a fakeExec whose context ends after it has run its first
// runs requests: the run's stop, cutting a batch.
type cutExec struct {
	fakeExec
	runs   int
	cancel context.CancelFunc
}

func (c *cutExec) Run(ctx context.Context, reqs []rt.Request) ([]RunOutcome, error) {
	n := min(c.runs, len(reqs))
	outs, err := c.fakeExec.Run(ctx, reqs[:n])
	if err != nil {
		return nil, err
	}
	c.runs -= n
	if c.runs <= 0 {
		c.cancel()
	}
	for range reqs[n:] {
		outs = append(outs, RunOutcome{Skipped: true})
	}
	return outs, nil
}

// A search the run's stop cuts before it has run again the inputs of the
// search it continues is no continuation of it: a later search continues
// the earlier one (ResumeAfter). A search cut after that, or one that
// continues none, is continued itself.
func TestResumeAfterCut(t *testing.T) {
	first := explore(t, find, Config{}, &fakeExec{p: find, workers: 2}, &bruteSolver{r: 4})
	from := ResumeFrom(first)
	if len(from.Inputs) < 2 || first.Runs < 3 {
		t.Fatalf("resume: %d inputs of %d runs; want at least 2 of 3", len(from.Inputs), first.Runs)
	}
	tests := []struct {
		name     string
		from     *Resume
		runs     int // before the stop
		startCut bool
	}{
		{name: "in its first batch", from: from, runs: 1, startCut: true},
		{name: "from the start", runs: 2, startCut: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ex := &cutExec{fakeExec: fakeExec{p: find, workers: 1}, runs: tt.runs, cancel: cancel}
			target := Target{Name: find.name}
			if tt.from != nil {
				target = tt.from.Target(target)
			}
			rep, err := Explore(ctx, Config{}, target, ex, &bruteSolver{r: 4})
			if err != nil {
				t.Fatal(err)
			}
			if tt.from != nil {
				tt.from.Into(rep)
			}
			if rep.StartCut != tt.startCut || rep.StopReason != ReasonCanceled || rep.Exhaustive {
				t.Fatalf("start cut %v, stop %q, exhaustive %v; want start cut %v, canceled", rep.StartCut, rep.StopReason, rep.Exhaustive, tt.startCut)
			}
			next := ResumeAfter(rep)
			if tt.startCut {
				if next != tt.from {
					t.Errorf("cut in its first batch: continued from %+v, want the search it continued", next)
				}
				return
			}
			if next == nil || next.Runs != rep.Runs || rep.Runs == 0 || len(next.Inputs) == 0 {
				t.Errorf("continued from %+v; want its own %d runs and inputs", next, rep.Runs)
			}
		})
	}
}

// A report the run's stop cut short is never exhaustive, whatever bound
// it named, and says it was canceled.
func TestCanceled(t *testing.T) {
	rep := explore(t, find, Config{}, &fakeExec{p: find, workers: 2}, &bruteSolver{r: 4})
	if !rep.Exhaustive {
		t.Fatal("want an exhaustive search to mark")
	}
	rep.Canceled()
	rep.Canceled()
	if rep.Exhaustive || rep.StopReason != ReasonCanceled || !slices.Equal(rep.Incomplete, []string{ReasonCanceled}) {
		t.Errorf("exhaustive %v, stop %q, incomplete %v; want canceled once", rep.Exhaustive, rep.StopReason, rep.Incomplete)
	}
}
