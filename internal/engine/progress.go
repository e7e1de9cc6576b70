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
	deadline     time.Time     // the end of the whole-run budget (zero: none)
	// pkgs counts the packages of the run with selected targets, pkgsDone
	// those done; overhead is the time the packages done took besides
	// exploring (loading them into the cache's keys, building, writing
	// files, running generated tests).
	pkgs, pkgsDone int
	overhead       time.Duration
	pkgStart       time.Time     // when the package being run began (zero: none)
	pkgExplore     time.Duration // the time its explorations ended so far took
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
	if left, byBudget, ok := g.left(now); ok {
		s := left.Seconds()
		p.LeftSeconds, p.LeftBudget = &s, byBudget
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
		d := time.Since(t.current)
		t.explored++
		t.exploreTime += d
		t.pkgExplore += d
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

// packageBegins and packageEnds bracket the run of a package with
// selected targets, whose time besides exploring counts as overhead.
func (g *runner) packageBegins() {
	g.track.pkgStart, g.track.pkgExplore = time.Now(), 0
}

func (g *runner) packageEnds() {
	t := &g.track
	if t.pkgStart.IsZero() {
		return
	}
	t.pkgsDone++
	t.overhead += max(time.Since(t.pkgStart)-t.pkgExplore, 0)
	t.pkgStart = time.Time{}
}

// left estimates the run's time left, if the bounds say: every estimate
// of it comes from here. It is the exploration time left (explorationLeft)
// and, for each package not done, the average time the packages done took
// besides exploring (the one being run: what is left of that average),
// but never beyond the end of the whole-run budget; byBudget says the
// budget's end is the estimate, the work being expected to take longer
// (or having no other bound).
func (g *runner) left(now time.Time) (d time.Duration, byBudget, ok bool) {
	t := &g.track
	d, ok = g.explorationLeft(now)
	if ok && t.pkgsDone > 0 {
		avg := t.overhead / time.Duration(t.pkgsDone)
		rest := max(t.pkgs-t.pkgsDone, 0)
		if !t.pkgStart.IsZero() && rest > 0 {
			rest--
			spent := now.Sub(t.pkgStart) - t.pkgExplore
			if !t.current.IsZero() {
				spent -= now.Sub(t.current)
			}
			d += max(avg-spent, 0)
		}
		d += time.Duration(rest) * avg
	}
	if !t.deadline.IsZero() {
		if budget := max(t.deadline.Sub(now), 0); !ok || d > budget {
			return budget, true, true
		}
	}
	return d, false, ok
}

// explorationLeft estimates the exploration time left, if the time bound
// of a target says. It is the average time of the targets explored so
// far for each target still to explore (the one being explored: what is
// left of that average, or half of its bound if it is past it), never
// more than what the time bound of each target leaves.
func (g *runner) explorationLeft(now time.Time) (time.Duration, bool) {
	t := &g.track
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
