package engine

import (
	"context"
	"time"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/load"
)

// The whole-run budget (Config.Budget, -budget) is shared among the
// targets of the run as a fuzzing scheduler shares its time among
// targets (docs/architecture.md, "The whole-run budget"):
//
//   - when a package's binary is built, the package is allotted its
//     targets' part of the budget left: (time left) × (its targets to
//     explore) / (targets of the run still to explore);
//   - its targets are explored one after another, each given an equal
//     part of what the package has left (so that the time a target gives
//     back, by ending early, goes to those after it), at least minShare
//     and at most -max-time;
//   - a target ends early when its search is exhaustive or stops finding
//     new behaviour (explore.Config.Plateau); one that is still finding
//     when its share runs out stops with reason "budget";
//   - while the package's allotment has at least minSecondShare left,
//     the targets stopped by the budget are explored again, sharing
//     what is left, each from where it stopped (explore.Resume): the
//     inputs of its rows and failures.
//
// Time a package does not use goes to the packages after it. The clock
// is the run's wall clock from its start: loading and building count,
// so the budget is about what a person waits for. What comes after a
// package's targets (writing its files and confirming their rows with go
// test) counts too: the package keeps a part of its allotment for it
// (reserve), so that the run ends within its budget.

// Shares of the budget.
const (
	// minShare is the least time a target is given, even when the
	// budget is spent: every selected target is explored, if briefly.
	minShare = time.Second
	// minSecondShare is the least time left in a package's allotment
	// for which targets the budget stopped are explored again: the
	// search that continues one first runs its rows again.
	minSecondShare = 2 * time.Second
	// maxPasses bounds the searches of one target in one run.
	maxPasses = 4
	// maxReserve is the largest part of a package's allotment kept for
	// what comes after its targets.
	maxReserve = 0.5
)

// reserve is the part of a package's allotment kept for what comes after
// its targets: writing its files and confirming their rows, which builds
// the package's tests once more and runs them. It is twice the time the
// package's instrumented build took (a build of the same code: on a
// loaded machine the tail took from a third of that time to more than
// all of it) and the time the last search may take beyond its bound to
// end (explore.FinishGrace), but at most maxReserve of the allotment:
// the targets get the rest.
func reserve(allotted, buildTime time.Duration) time.Duration {
	return min(2*buildTime+explore.FinishGrace, time.Duration(float64(allotted)*maxReserve))
}

// scheduler shares the whole-run budget among the targets of a run.
type scheduler struct {
	deadline time.Time
	left     int // targets of the run not yet allotted time
}

func newScheduler(start time.Time, budget time.Duration, targets int) *scheduler {
	return &scheduler{deadline: start.Add(budget), left: targets}
}

// allot returns the time of a package with n targets to explore, and
// counts them as allotted.
func (s *scheduler) allot(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	left := max(s.left, n)
	s.left = max(0, s.left-n)
	d := time.Until(s.deadline)
	if d <= 0 {
		return 0
	}
	return time.Duration(float64(d) * float64(n) / float64(left))
}

// skip counts n targets of the run that need no time (their results are
// cached, or they cannot be explored).
func (s *scheduler) skip(n int) { s.left = max(0, s.left-n) }

// pkgBudget is one package's allotment of the budget.
type pkgBudget struct {
	allotted time.Duration
	start    time.Time
	maxTime  time.Duration // each target's own bound (-max-time; 0: none)
}

// left is what the package has left of its allotment.
func (b *pkgBudget) left() time.Duration { return b.allotted - time.Since(b.start) }

// share is the time bound of a target when n targets, it included, are
// still to share what the package has left, and the target has already
// used used of its own bound.
func (b *pkgBudget) share(n int, used time.Duration) time.Duration {
	d := max(b.left()/time.Duration(max(n, 1)), minShare)
	if b.maxTime > 0 {
		d = min(d, b.maxTime-used)
	}
	return d
}

// config is cfg with the time bound d of a target's share: when it is
// shorter than the target's own bound, reaching it is the budget's stop.
func (b *pkgBudget) config(cfg explore.Config, d time.Duration) explore.Config {
	if cfg.MaxTime <= 0 || d < cfg.MaxTime {
		cfg.MaxTime, cfg.Budgeted = d, true
	}
	return cfg
}

// exploreBudgeted explores the results' targets on bin, which took
// buildTime to build, within the package's allotment less its reserve
// (see above).
func (g *runner) exploreBudgeted(ctx context.Context, p *load.Package, bin *build.Binary, buildTime time.Duration, todo []*Result) {
	allotted := g.sched.allot(len(todo))
	b := &pkgBudget{allotted: allotted - reserve(allotted, buildTime), start: time.Now(), maxTime: g.cfg.Explore.MaxTime}
	for i, r := range todo {
		if ctx.Err() != nil {
			r.Err = context.Cause(ctx)
			continue
		}
		r.Share = b.share(len(todo)-i, 0)
		r.Passes = 1
		r.Report, r.Err = g.explore(ctx, bin, r.Target, b.config(g.cfg.Explore, r.Share), r.Resumed, g.exploring(p, r.Target, bin), branchSet(bin.Sites))
		g.explored(r, bin, false)
	}
	for pass := 1; pass < maxPasses && ctx.Err() == nil; pass++ {
		var again []*Result
		for _, r := range todo {
			if r.Err == nil && r.Report != nil && r.Report.StopReason == explore.ReasonBudget && (b.maxTime <= 0 || r.Report.Elapsed+minShare <= b.maxTime) {
				again = append(again, r)
			}
		}
		if len(again) == 0 || b.left() < minSecondShare {
			return
		}
		for i, r := range again {
			d := b.share(len(again)-i, r.Report.Elapsed)
			if d < minShare || ctx.Err() != nil {
				continue
			}
			g.logf("%s: still finding new behaviour; %v more", r.Target.Name, d.Round(time.Millisecond))
			prev := r.Report
			rep, err := g.explore(ctx, bin, r.Target, b.config(g.cfg.Explore, d), explore.ResumeFrom(prev), g.exploring(p, r.Target, bin), branchSet(bin.Sites))
			g.explored(&Result{Report: rep}, bin, true)
			if err != nil {
				// The earlier search's report stands.
				g.warnf("warning: %s: exploring again: %v", r.Target.Name, err)
				continue
			}
			if rep.StartCut {
				// Stopped before it had found again what the earlier
				// search found: that search's report stands.
				prev.Canceled()
				continue
			}
			explore.AddWork(rep, prev)
			r.Report = rep
			r.Passes++
		}
	}
}
