package engine

import (
	"time"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/load"
)

// ProgressHandler is a Handler that is also told where the run is, at
// every step: the packages loaded, a package's build, each target's
// exploration (after every batch of runs) and its end, a package's
// files written. Progress is called on the goroutine that calls Target.
type ProgressHandler interface {
	Handler
	Progress(p output.Progress)
}

// Progress implements ProgressHandler for an output handler that is
// one; others are not told.
func (o outputHandler) Progress(p output.Progress) {
	if ph, ok := o.h.(output.ProgressHandler); ok {
		ph.Progress(p)
	}
}

// tracker is what the runner knows of the run's progress.
type tracker struct {
	start        time.Time
	total, done  int
	explored     int           // targets whose exploration ended
	exploreTime  time.Duration // the time their explorations took
	current      time.Time     // when the target being explored began (zero: none)
	pkg, target  string
	phase        string
	outcomes     int // branch outcomes of the binary being explored
	counts       explore.Counts
	hasCounts    bool
	maxTimeBound time.Duration // the time bound of one target (0: none)
}

// progress hands the handler, if it wants it, where the run is.
func (g *runner) progress() {
	ph, ok := g.h.(ProgressHandler)
	if !ok {
		return
	}
	t := &g.track
	now := time.Now()
	p := output.Progress{
		Phase: t.phase, Package: t.pkg, Target: t.target,
		TargetsDone: t.done, Targets: t.total,
		ElapsedSeconds: now.Sub(t.start).Seconds(),
	}
	if t.hasCounts {
		p.Runs, p.Paths, p.Covered, p.Failures, p.Outcomes = t.counts.Runs, t.counts.Paths, t.counts.Covered, t.counts.Failures, t.outcomes
	}
	if left, ok := g.left(now); ok {
		s := left.Seconds()
		p.LeftSeconds = &s
		if g.sched != nil {
			est, ok := t.left(now)
			p.LeftIsBudget = !ok || left < est
		}
	}
	ph.Progress(p)
}

// step begins a phase of the run for package pkg and target target.
func (g *runner) step(phase, pkg, target string) {
	t := &g.track
	t.phase, t.pkg, t.target = phase, pkg, target
	t.hasCounts = false
	g.progress()
}

// exploring begins the exploration of target t of p on bin, and returns
// the function explore.Config.Progress calls with its counts.
func (g *runner) exploring(p *load.Package, t *load.Target, bin *build.Binary) func(explore.Counts) {
	tr := &g.track
	tr.current = time.Now()
	tr.outcomes = 2 * branchSites(bin.Sites)
	tr.counts, tr.hasCounts = explore.Counts{}, true
	tr.phase, tr.pkg, tr.target = output.PhaseExplore, p.Path, t.Name
	g.progress()
	return func(c explore.Counts) {
		tr.counts = c
		g.progress()
	}
}

// explored ends the exploration of a target: r holds its report (nil if
// it was not explored), bin the binary it ran in; again says it was a
// later pass of the budget's over a target already counted done.
func (g *runner) explored(r *Result, bin *build.Binary, again bool) {
	t := &g.track
	if !again {
		t.done++
	}
	if !t.current.IsZero() {
		t.explored++
		t.exploreTime += time.Since(t.current)
		t.current = time.Time{}
	}
	if r.Report == nil {
		return
	}
	cov := output.CoverageOf(r.Report, bin.Sites)
	t.counts = explore.Counts{Runs: r.Report.Runs, Paths: r.Report.Paths, Covered: cov.Covered, Failures: len(r.Report.Failures)}
	t.hasCounts = true
	t.phase = output.PhaseExplored
	g.progress()
}

// skipped counts n targets done without being explored (cached, not
// explorable).
func (g *runner) skipped(n int) {
	g.track.done += n
}

// left estimates the exploration time left, if the bounds say: every
// estimate of the run's remaining time comes from here. It is the
// average time of the targets explored so far for each target still to
// explore (the one being explored: what is left of that average, or half
// of its bound if it is past it), never more than what the time bound of
// each target leaves, nor more than what the whole-run budget (-budget)
// leaves.
func (g *runner) left(now time.Time) (time.Duration, bool) {
	est, ok := g.track.left(now)
	if g.sched == nil {
		return est, ok
	}
	run := max(g.sched.deadline.Sub(now), 0)
	if !ok {
		return run, true
	}
	return min(est, run), true
}

// left is the estimate of runner.left from the targets' time bounds
// alone.
func (t *tracker) left(now time.Time) (time.Duration, bool) {
	bound := t.maxTimeBound
	if bound <= 0 {
		return 0, false
	}
	pending := t.total - t.done
	var spent time.Duration
	if !t.current.IsZero() {
		pending--
		spent = now.Sub(t.current)
	}
	pending = max(pending, 0)
	upper := time.Duration(pending) * bound
	if !t.current.IsZero() {
		upper += max(bound-spent, 0)
	}
	if t.explored == 0 {
		return upper, true
	}
	avg := min(t.exploreTime/time.Duration(t.explored), bound)
	est := time.Duration(pending) * avg
	if !t.current.IsZero() {
		if spent < avg {
			est += avg - spent
		} else {
			est += max(bound-spent, 0) / 2
		}
	}
	return min(est, upper), true
}

// branchSet returns whether a site is one of the branch sites among
// sites (nil if there are none: every site counts), as
// output.CoverageOf counts them.
func branchSet(sites []build.Site) func(uint32) bool {
	set := map[uint32]bool{}
	for _, s := range sites {
		if s.Branch() {
			set[s.ID] = true
		}
	}
	if len(set) == 0 {
		return nil
	}
	return func(id uint32) bool { return set[id] }
}

// branchSites counts the branch sites among sites.
func branchSites(sites []build.Site) int {
	n := 0
	for _, s := range sites {
		if s.Branch() {
			n++
		}
	}
	return n
}

// PackageDone implements output.PackageHandler for an output handler
// that is one.
func (o outputHandler) PackageDone(pkg string, elapsed time.Duration) error {
	if ph, ok := o.h.(output.PackageHandler); ok {
		return ph.PackageDone(pkg, elapsed)
	}
	return nil
}

// packageDone tells the handler, if it wants it, that the results of
// package pkg are all in, the package having taken elapsed.
func (g *runner) packageDone(pkg string, elapsed time.Duration) error {
	if ph, ok := g.h.(interface {
		PackageDone(string, time.Duration) error
	}); ok {
		return ph.PackageDone(pkg, elapsed)
	}
	return nil
}
