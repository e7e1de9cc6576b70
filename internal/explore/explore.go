// Package explore is the coordinator's search: it runs a target on worker
// processes, asks the solver for inputs that take the branches not yet
// taken, and decides when a target has been explored completely.
//
// The search is generational (SAGE): every run's path condition is
// expanded by negating, one at a time, each branch after the run's
// generation bound; the children are run, scored by the branch outcomes
// they covered first, and expanded best first. DFS, BFS and random order
// are options that only change which run is expanded next.
//
// Exploration is deterministic for a given configuration: the queries of
// one expansion are solved in branch order, its children are run as one
// batch on as many workers as there are, and their results are processed
// in the order of the batch, so neither the number of workers nor timing
// changes the order of runs or the rows found — unless a time bound
// (-max-time, -run-timeout, -solver-timeout) is hit, or the code under
// test keeps state across runs in one worker process.
package explore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// explorer holds the state of one exploration.
type explorer struct {
	cfg    Config
	target Target
	ex     Executor
	solver query.Solver
	start  time.Time
	leaves []rt.Leaf
	sym    *sym.Context
	// malformedRuns counts the runs whose traces could not be turned
	// into conditions (decode); the first is reported.
	malformedRuns int

	front   frontier
	reached map[prefix]bool // prefixes reached by a run or tried as a query
	covered map[Branch]bool
	paths   map[prefix]bool
	// infeasible holds the outcomes a query or simplification proved
	// infeasible on some path.
	infeasible map[Branch]bool
	known      map[prefix]bool // paths of the searches this one continues (Target.Known)
	// rowCovered holds the branch outcomes of the runs that are rows;
	// skipped holds paths that ended in t.Skip, which become rows only if
	// they reach an outcome no other row reaches (see finish).
	rowCovered map[Branch]bool
	skipped    []skippedPath
	hit        map[string]bool
	// bounded holds infeasible branches whose queries involve inputs
	// with a length bound: checkBounds asks whether longer inputs would
	// take them.
	boundChecks   []boundCandidate
	boundsChecked bool
	mut           *mutator        // the mutation phase's state
	refs          map[uint64]refs // how terms read the inputs, by term (lengthfree.go)
	stop          string
	rep           *Report
	runs          int
	coveredCode   int // outcomes in covered but those of rt.InputSite
	died          int // runs that ended their worker
	lastFound     int // the last run that covered a new branch outcome or took a new path

	deadline context.Context // ctx with the time bound, once made
	cancel   context.CancelFunc
}

// Explore explores target until its paths are exhausted or a bound stops
// it. A nil solver makes every negated branch unknown (reason
// "no-solver"). The error is for failures of the machinery (a worker that
// cannot start); what the target does is in the report.
func Explore(ctx context.Context, cfg Config, target Target, ex Executor, solver query.Solver) (*Report, error) {
	e := &explorer{
		cfg: cfg, target: target, ex: ex, solver: solver, start: time.Now(), sym: sym.NewContext(),
		reached: map[prefix]bool{}, covered: map[Branch]bool{}, paths: map[prefix]bool{},
		infeasible: map[Branch]bool{}, hit: map[string]bool{}, mut: newMutator(cfg.Seed),
		rep: &Report{Target: target.Name, Statuses: map[rt.Status]int{}},
	}
	defer func() {
		if e.cancel != nil {
			e.cancel()
		}
	}()
	var err error
	e.front, err = newFrontier(cfg.Strategy, cfg.Seed)
	if err != nil {
		return nil, err
	}
	leaves, err := ex.Leaves(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting a worker for %s: %w", target.Name, err)
	}
	e.leaves = leaves
	e.rep.Leaves = e.leaves
	if len(target.Known) > 0 {
		e.known = make(map[prefix]bool, len(target.Known))
		for _, k := range target.Known {
			e.known[k] = true
		}
	}
	if slices.ContainsFunc(leaves, func(l rt.Leaf) bool { return l.Cut }) {
		e.hit[ReasonCutInputs] = true // longer nested values are not explored
	}

	seeds := target.Seeds
	if sd, ok := ex.(Seeder); ok {
		seeds = append(slices.Clip(seeds), sd.Seeds()...)
	}
	zero := zeroInputs(leaves)
	if target.Regression {
		zero = distinctInputs(leaves)
	}
	batch := []child{{inputs: zero, flip: -1}}
	initial := SeedInputs(leaves, seeds)
	seeded := len(initial)
	for _, in := range target.Inputs {
		if target.From != nil {
			in = translate(target.From, leaves, in)
		}
		initial = append(initial, in)
	}
	for i, s := range initial {
		if len(s) != len(leaves) {
			continue
		}
		if j := slices.IndexFunc(batch, func(c child) bool { return slices.Equal(c.inputs, s) }); j >= 0 {
			batch[j].rerun = batch[j].rerun || i >= seeded
			continue
		}
		batch = append(batch, child{inputs: s, flip: -1, rerun: i >= seeded})
	}
	// The fuzzer's inputs run in a batch of their own, after the rest:
	// the first batch of a search that starts from an earlier one's rows
	// is not cut by the time bound (runBatch), the fuzzer's may be.
	var fuzzed []child
	for _, s := range SeedInputs(leaves, target.Fuzzed) {
		if !slices.ContainsFunc(batch, func(c child) bool { return slices.Equal(c.inputs, s) }) {
			fuzzed = append(fuzzed, child{inputs: s, flip: -1, fuzzed: true})
		}
	}
	if cfg.MaxRuns > 0 && len(batch) > cfg.MaxRuns {
		batch = batch[:cfg.MaxRuns]
		e.halt(ReasonMaxRuns)
	}
	var turn time.Time // when the current expansion or mutant batch began
	mutants := false
	for {
		if len(batch) > 0 {
			if err := e.runBatch(ctx, batch); err != nil {
				return nil, err
			}
			batch = nil
		}
		if len(fuzzed) > 0 && e.stop == "" {
			if cfg.MaxRuns > 0 && e.runs+len(fuzzed) > cfg.MaxRuns {
				fuzzed = fuzzed[:max(0, cfg.MaxRuns-e.runs)]
			}
			if err := e.runBatch(ctx, fuzzed); err != nil {
				return nil, err
			}
			fuzzed = nil
		}
		if !turn.IsZero() {
			e.account(mutants, time.Since(turn))
		}
		if e.stop != "" || !e.checkTime(ctx) {
			break
		}
		if e.plateaued() {
			e.halt(ReasonPlateau)
			break
		}
		turn, mutants = time.Now(), false
		if e.front.len() == 0 || e.interleave() {
			// While the concolic search has work left, mutants take at
			// most as many runs as it did: under -max-runs cheap mutant
			// batches would otherwise use the budget up (a lexer's
			// search got 430 of 10,000 runs and missed its failure).
			starved := e.front.len() > 0 && e.cfg.MaxRuns > 0 && 2*e.rep.MutantRuns >= e.runs
			if !starved && e.mutating(ctx, e.front.len() == 0) {
				mutants = true
				for _, in := range e.mut.batch(e.leaves) {
					batch = append(batch, child{inputs: in, flip: -1, mutant: true})
				}
				if e.cfg.MaxRuns > 0 && e.runs+len(batch) > e.cfg.MaxRuns {
					batch = batch[:max(0, e.cfg.MaxRuns-e.runs)]
					e.halt(ReasonMaxRuns)
				}
				continue
			}
			if e.front.len() == 0 {
				break
			}
			// The expansions' turn (going round the loop instead would
			// count this turn's time as owed to mutants again, forever).
			e.mut.owed = 0
		}
		n := e.front.pop()
		if n == nil {
			break
		}
		batch, err = e.expand(ctx, n)
		if err != nil {
			return nil, err
		}
	}
	if !e.boundsChecked {
		e.checkBounds(ctx)
	}
	e.finish()
	// Running failures alone and rows again takes worker processes of
	// their own: a search stopped by its time bound gets FinishGrace
	// more for it, what is not done by then stays unconfirmed.
	after, cancel := e.afterBound(ctx)
	defer cancel()
	if err := e.recheck(after); err != nil {
		return nil, err
	}
	if e.target.Regression {
		if err := e.confirm(after); err != nil {
			return nil, err
		}
	}
	return e.rep, nil
}

// FinishGrace bounds, beyond the time bound, what a search does once it
// has stopped: running its failures alone (recheck) and its rows again
// (confirm). A failure not run alone by then counts as a failure; a row
// not run again has its results left unasserted.
const FinishGrace = 3 * time.Second

// afterBound is ctx with the deadline of what a search does once it has
// stopped: FinishGrace after the time bound, or after now if the bound
// is past.
func (e *explorer) afterBound(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.cfg.MaxTime <= 0 {
		return ctx, func() {}
	}
	end := e.start.Add(e.cfg.MaxTime)
	if now := time.Now(); now.After(end) {
		end = now
	}
	return context.WithDeadline(ctx, end.Add(FinishGrace))
}

// recheck runs the input of each failure (but time-outs, whose runs take
// the run time bound) once more, alone in a fresh worker process, if the
// executor can (Alone), and marks those that do not end the same way —
// same status, and for a panic the same site — as depending on state
// earlier runs left in the worker (Failure.EarlierState). Workers serve
// one run after another, so a package variable one run set is there for
// the next: pflag's CommandLine keeps every flag a run defined, and a
// later run defining the same name panics "flag redefined", which no
// single call of the target does.
func (e *explorer) recheck(ctx context.Context) error {
	al, ok := e.ex.(Alone)
	if !ok || ctx.Err() != nil {
		return nil
	}
	var reqs []rt.Request
	var which []int
	for i, f := range e.rep.Failures {
		switch f.Status {
		case rt.StatusFail, rt.StatusPanic, rt.StatusExit:
			which = append(which, i)
			reqs = append(reqs, rt.Request{Seq: uint64(e.runs + len(reqs) + 1), Target: e.target.Name, Inputs: f.Inputs, MaxBranches: e.cfg.MaxBranches})
		}
	}
	if len(reqs) == 0 {
		return nil
	}
	outs, err := al.RunAlone(ctx, reqs)
	if err != nil {
		return fmt.Errorf("running the failures of %s alone: %w", e.target.Name, err)
	}
	for k, o := range outs {
		f := &e.rep.Failures[which[k]]
		if o.Skipped {
			continue // not known
		}
		f.EarlierState = !sameEnding(f, &o.Result)
	}
	return nil
}

// sameEnding reports whether res ends as failure f did: the same status
// and, for a panic, the same site.
func sameEnding(f *Failure, res *rt.Result) bool {
	return res.Status == f.Status && (f.Status != rt.StatusPanic || res.PanicAt == f.PanicAt)
}

// confirm runs the passing rows of a regression target once more and
// drops the results of those that return others (a function of the time
// or of random numbers): a row asserting them would fail when it runs.
func (e *explorer) confirm(ctx context.Context) error {
	var reqs []rt.Request
	var rows []int
	for i, r := range e.rep.Rows {
		if r.Status == rt.StatusPass && r.Outputs != nil {
			rows = append(rows, i)
			reqs = append(reqs, rt.Request{Seq: uint64(e.runs + len(reqs) + 1), Target: e.target.Name, Inputs: r.Inputs, MaxBranches: e.cfg.MaxBranches})
		}
	}
	if len(reqs) == 0 || ctx.Err() != nil {
		return nil
	}
	outs, err := e.ex.Run(ctx, reqs)
	if err != nil {
		return fmt.Errorf("running %s again: %w", e.target.Name, err)
	}
	for k, o := range outs {
		row := &e.rep.Rows[rows[k]]
		if o.Skipped {
			row.Outputs = nil // not confirmed
			continue
		}
		if o.Result.Status != rt.StatusPass || !slices.Equal(o.Result.Outputs, row.Outputs) {
			row.Outputs = nil
			e.rep.Unstable++
		}
	}
	return nil
}

// plateauRuns is the least number of runs without a new branch outcome
// or path that make a plateau (Config.Plateau).
const plateauRuns = 1000

// plateaued reports whether a search under Config.Plateau has stopped
// finding anything: the runs since the last one that covered a new
// branch outcome or took a new path are at least plateauRuns and at
// least as many as all runs before it, those of the searches it
// continues included, so that a search that took long to find something
// is given as long again.
func (e *explorer) plateaued() bool {
	since := e.runs - e.lastFound
	return e.cfg.Plateau && since >= plateauRuns && since >= e.target.EarlierRuns+e.lastFound
}

// halt stops exploration for reason (the first reason wins).
func (e *explorer) halt(reason string) {
	e.hit[reason] = true
	if e.stop == "" {
		e.stop = reason
	}
}

// checkTime halts when a time bound or the context says so.
func (e *explorer) checkTime(ctx context.Context) bool {
	if ctx.Err() != nil {
		e.halt(ReasonCanceled)
		return false
	}
	if e.cfg.MaxTime > 0 && time.Since(e.start) >= e.cfg.MaxTime {
		e.halt(e.timeReason())
		return false
	}
	return true
}

// timeReason is the reason a search the time bound stops halts with:
// the whole-run budget's when the bound is the target's share of it.
func (e *explorer) timeReason() string {
	if e.cfg.Budgeted {
		return ReasonBudget
	}
	return ReasonMaxTime
}

func (e *explorer) runBatch(ctx context.Context, batch []child) error {
	reqs := make([]rt.Request, len(batch))
	for i, c := range batch {
		reqs[i] = rt.Request{
			Seq:         uint64(e.runs + i + 1),
			Target:      e.target.Name,
			Inputs:      c.inputs,
			MaxBranches: e.cfg.MaxBranches,
		}
	}
	run := e.bounded(ctx)
	first := e.runs == 0 && len(e.target.Inputs) > 0 && !batch[0].fuzzed
	if first {
		// The first batch of a search that starts from an earlier one's
		// rows runs them all, time bound or not: cut short, it would
		// lose what the earlier search found (ExploreRaising leaves time
		// for it).
		run = ctx
	}
	outs, err := e.ex.Run(run, reqs)
	if err != nil {
		return fmt.Errorf("running %s: %w", e.target.Name, err)
	}
	skipped := false
	for i, o := range outs {
		if o.Skipped {
			skipped = true
			continue
		}
		e.record(batch[i], o)
	}
	e.progress()
	if skipped {
		// Cut in its first batch, the search has not found again all
		// the earlier one found: it is no continuation of it.
		e.rep.StartCut = e.rep.StartCut || first
		e.interrupted(ctx)
	}
	return nil
}

// bounded returns ctx with the deadline of the time bound, if any.
func (e *explorer) bounded(ctx context.Context) context.Context {
	if e.cfg.MaxTime <= 0 {
		return ctx
	}
	if e.deadline == nil {
		e.deadline, e.cancel = context.WithDeadline(ctx, e.start.Add(e.cfg.MaxTime))
	}
	return e.deadline
}

// interrupted halts after the bounded context ended.
func (e *explorer) interrupted(ctx context.Context) {
	if ctx.Err() != nil {
		e.halt(ReasonCanceled)
	} else {
		e.halt(e.timeReason())
	}
}
