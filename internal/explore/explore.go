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
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Config bounds and steers exploration.
type Config struct {
	MaxRuns       int           // runs per target; 0: no bound
	MaxBranches   int           // branch events recorded per run; 0: no bound
	MaxTime       time.Duration // per target; 0: no bound
	SolverTimeout time.Duration // per query; 0: the solver's default
	Strategy      Strategy      // "" means Generational
	Seed          int64         // for the random strategy
	// NoMutation turns the mutation phase off (see mutate.go): the
	// search then ends when the concolic frontier is empty.
	NoMutation bool
	// Raisable says that the caller raises the length bound when the
	// search shows longer inputs matter (ExploreRaising): before mutating,
	// the bound checks run, and if they find such branches the search
	// ends, so that a search with a longer bound uses the time instead.
	Raisable bool
	// RowPerPath keeps a row for every distinct passing path. By default
	// passing rows are reduced to a few that together reach every branch
	// outcome the passing paths reach (failing rows are all kept).
	RowPerPath bool
	// Progress, if set, is called with the live counts after every batch
	// of runs, on the goroutine that called Explore (progress.go).
	Progress func(Counts) `json:"-"`
	// Counted, if set, says which sites' outcomes Counts.Covered counts
	// (the branch sites of the binary, as the summary's coverage does);
	// nil: every site but rt.InputSite.
	Counted func(site uint32) bool `json:"-"`
	// Budgeted says that MaxTime is the target's share of a whole-run
	// budget, shorter than its own bound: a search it stops halts with
	// ReasonBudget instead of ReasonMaxTime.
	Budgeted bool
	// Plateau ends the search once it stops finding anything (stop
	// reason ReasonPlateau, see plateaued): under a whole-run budget, a
	// target that no longer finds new behaviour gives its time to those
	// that still do.
	Plateau bool
}

// Target is what Explore explores.
type Target struct {
	Name string
	// Regression marks a target whose rows are regression tests (an
	// automatic target: its results are asserted). Its search starts from
	// distinctive values instead of zeros (distinctInputs), so that values
	// no branch constrains stay distinctive in the rows and a changed
	// computation changes the results; and every distinct passing path
	// keeps its row, since paths that reach no new branch outcome still
	// return different results.
	Regression bool
	// Labels are display names of parameters, by their layout names:
	// the isolated call sites' ("iso:Load.ReadFile.1" → "os.ReadFile"),
	// whose leaves InputText then writes as "os.ReadFile#1 returned
	// len(r0)=1, ..." for the first call.
	Labels map[string]string
	// Fuzz marks a fuzz target: its mutation phase (mutate.go) goes on
	// until the time bound, as go test -fuzz would, instead of stopping at
	// a plateau.
	Fuzz bool
	// Seeds are initial inputs besides the zero input, as Go values of the
	// parameters (int64, uint64, bool, string, []byte); see SeedInputs.
	Seeds [][]any
	// Inputs are initial input vectors for the executor's leaves, run
	// after the seeds (a search with a raised length bound starts from
	// the rows of the one before it).
	Inputs [][]rt.Value
	// From are the leaves Inputs are for, if not the executor's: they are
	// translated leaf by path (see translate).
	From []rt.Leaf
	// Known are the paths the searches this one continues took (a
	// Resume's): taken again, they are not counted as paths found.
	// EarlierRuns counts their runs: they were still finding new
	// behaviour when they stopped, so a plateau (Config.Plateau) needs
	// as many runs again without it.
	Known       []PathKey
	EarlierRuns int
	// Fuzzed are inputs Go's fuzzer found (ExploreRaising's hybrid
	// phase), as Seeds; they run after Inputs, and the paths they take
	// first are counted in Report.FuzzedPaths.
	Fuzzed [][]any
}

// Reasons why an exploration is not exhaustive, in the order reports list
// them. The first six are also stop reasons.
const (
	ReasonMaxRuns = "max-runs"
	ReasonMaxTime = "max-time"
	// ReasonBudget: the target's share of the whole-run budget ran out
	// while it was still finding new behaviour (Config.Budgeted).
	ReasonBudget = "budget"
	// ReasonPlateau: the search stopped finding new branch outcomes and
	// paths (Config.Plateau).
	ReasonPlateau       = "plateau"
	ReasonCanceled      = "canceled"
	ReasonMaxBranches   = "max-branches"
	ReasonSolverTimeout = "solver-timeout"
	ReasonSolverUnknown = "solver-unknown"
	ReasonNoSolver      = "no-solver"
	ReasonRunTimeout    = "run-timeout"
	ReasonMaxMemory     = "max-memory"    // a run ran out of memory (the -max-memory bound, or the machine's)
	ReasonWorkerKilled  = "worker-killed" // a worker was killed by a signal dowse did not send
	ReasonWorkerExit    = "worker-exit"
	ReasonBuildCrash    = "build-crash" // a worker died building an input (the package's constructor or method)
	ReasonConcretized   = "concretization"
	ReasonGoroutines    = "goroutines"
	ReasonDivergence    = "divergence"
	ReasonInternal      = "internal-error" // a run's expressions could not be decoded
	// ReasonCutInputs: collections inside others had fewer element
	// slots than the length bound, to keep the input vector within
	// rt.MaxLeaves (rt.Leaf.Cut).
	ReasonCutInputs = "cut-inputs"
)

// StopExhausted is the stop reason when every branch of every explored
// path was taken or proven infeasible and no bound was hit.
const StopExhausted = "all paths explored"

var reasonOrder = []string{
	ReasonMaxRuns, ReasonMaxTime, ReasonBudget, ReasonPlateau, ReasonCanceled, ReasonMaxBranches,
	ReasonSolverTimeout, ReasonSolverUnknown, ReasonNoSolver, ReasonRunTimeout,
	ReasonMaxMemory, ReasonWorkerKilled, ReasonWorkerExit, ReasonBuildCrash, ReasonConcretized, ReasonGoroutines, ReasonDivergence, ReasonInternal, ReasonCutInputs,
}

// Report is the result of exploring one target.
type Report struct {
	Target string
	Leaves []rt.Leaf // the input vector's leaves (rt.Layout.Leaves)

	Runs  int // runs executed
	Paths int // distinct complete paths: branch outcomes plus ending
	// Rows holds one run per distinct path that ended in pass, fail or
	// panic, in the order found, then the paths that ended in t.Skip and
	// reach a branch outcome no other row reaches.
	Rows     []Row
	Failures []Failure  // runs that failed, panicked, exited or timed out: one per distinct path
	Unsolved []Unsolved // branches the solver could not decide (the first MaxUnsolved)

	// Covered lists the branch outcomes (site, taken) seen, sorted.
	Covered []Branch
	// Infeasible lists the branch outcomes no run took that the solver
	// (or simplification) proved infeasible on some path that reached
	// their branch, sorted: on that path, no input takes them.
	Infeasible []Branch

	StopReason string
	// Incomplete lists every reason the exploration is not exhaustive, in
	// a fixed order; empty if it is.
	Incomplete []string
	// Exhaustive is true if every branch of every explored path was
	// either taken or proven infeasible within the input domain, and no
	// bound, concretization, goroutine or divergence got in the way.
	Exhaustive bool

	Statuses       map[rt.Status]int // runs by how they ended
	Elapsed        time.Duration
	SolverTime     time.Duration
	TargetTime     time.Duration // time the runs spent in the target itself (the rest of a run is harness and IPC)
	Queries        int           // solver queries
	Sat, Unsat     int
	UnknownAnswers int
	CacheHits      int
	Divergences    int
	// LengthFreeRuns counts the runs of inputs found by length-free
	// queries (lengthfree.go), LengthFreePaths the paths they took first.
	LengthFreeRuns, LengthFreePaths int
	// AllocBounded is set when some input asked the code for a make
	// longer than rt.MaxAlloc: those runs stopped before allocating, and
	// the verdict holds for the inputs within that bound.
	AllocBounded bool
	// NodeBounded is set when the node bound restricted some run's
	// choice of dynamic type (rt.Result.NodeBounded): inputs with more
	// mock values per parameter than the length bound are outside the
	// explored domain.
	NodeBounded bool
	// Unstable counts the rows of a regression target whose results
	// differed when run again; their results are not asserted.
	Unstable        int
	DivergenceSites []uint32 // distinct sites where the first divergences showed (at most MaxDivergenceSites)
	Concretizations int      // concretization records over all runs
	// ConcretizedAt lists the distinct sites and reasons of the first
	// concretizations (at most MaxDivergenceSites): what keeps the
	// verdict from being exhaustive, and where.
	ConcretizedAt []rt.Concretization
	// BoundLimited lists branches that are infeasible within the length
	// bound (-max-len) but feasible with longer strings or slices, with
	// the lengths a solution needs (the first few checked).
	BoundLimited []BoundLimited
	// Longer is, when BoundLimited is empty and the caller may raise the
	// bound (Config.Raisable), an outcome that some run reached but that
	// longer inputs reach along another path (a helper or loop run once
	// more): a reason to raise the bound while time is plentiful, not
	// reported.
	Longer []BoundLimited
	Errors []string // internal errors (malformed expression arenas), the first few
	// OmittedFailures counts the failures of a PUT or fuzz target beyond
	// MaxFailures, left out of Failures and Rows.
	OmittedFailures int
	// BuildCrashes counts the runs whose worker died or hung while
	// building the input (a constructor or method of a built value
	// crashed the process, e.g. by running out of memory): the inputs are
	// rejected, as when a build panics, and the verdict is not exhaustive.
	BuildCrashes int
	// ResourceBounded counts the runs that ended their worker on a
	// resource bound rather than by anything the target did that go test
	// would report (resourceBound): time-outs, running out of memory, a
	// kill by a signal from outside. They are no failures of the target;
	// the verdict names the bound.
	ResourceBounded int
	// MutantRuns counts the runs of mutated inputs (the mutation phase,
	// mutate.go) and MutantPaths the distinct paths they found first.
	MutantRuns, MutantPaths int
	// FuzzedPaths counts the distinct paths that inputs of Go's fuzzer
	// (Target.Fuzzed) took first, and Fuzzer what ExploreRaising's hybrid
	// phase did (nil if it did not run).
	FuzzedPaths int
	Fuzzer      *FuzzReport
	// RerunPaths counts the paths that inputs of an earlier search
	// (Target.Inputs) took.
	RerunPaths int
	// PathKeys identify the paths counted in Paths, in the order found
	// (Resume.Known).
	PathKeys []PathKey
	// Pool are inputs that covered a new branch outcome or took a new
	// path (the mutation pool, at most maxPool).
	Pool [][]rt.Value
	// Resumed, if not nil, is the earlier search this one continued
	// (Resume.Into): its runs, paths and branch outcomes are counted
	// here.
	Resumed *Resume
	// MaxLen is the length bound the verdict holds for, and RaisedFrom
	// the bound the search started from if ExploreRaising raised it (0
	// otherwise). Explore itself leaves both 0.
	MaxLen, RaisedFrom int
}

// BoundLimited is a branch outcome that only inputs longer than the
// length bound reach.
type BoundLimited struct {
	Site    uint32
	Taken   bool
	Lengths []string // e.g. "len(b)=12", "len(s)=36": the lengths of one solution that exceed the bound
	// Need is the longest length of the solution, and Inputs the solution
	// itself (for the leaves with relaxed bounds: a slice's elements
	// beyond the bound are missing), which a search with a raised bound
	// starts from (see ExploreRaising).
	Need   int
	Inputs []rt.Value
}

// Branch is one outcome of a branch site.
type Branch struct {
	Site  uint32
	Taken bool
}

// Row is one run that took a distinct path.
type Row struct {
	Run           int // 1-based number of the run
	Inputs        []rt.Value
	Status        rt.Status
	Messages      []string
	PanicAt       string
	PathCondition string
	Outcomes      []Branch   // the branch outcomes the run reached, in order, repeated ones included
	Outputs       []rt.Value // an automatic target's results (rt.Result.Outputs)
	Isolated      int        // isolated calls the run made (rt.Result.Isolated)
	MockCalls     [][]string // the calls its parameters' mocks recorded (rt.Result.MockCalls)

	conds []*sym.Expr // the path condition, written into PathCondition by finish
}

// Failure is a run that did not pass: t.Error/t.Fatal, a panic, os.Exit,
// a dead worker or a time-out.
type Failure struct {
	Row           int // index into Rows, -1 if the run has no row
	Run           int
	Status        rt.Status
	Messages      []string
	PanicAt       string
	Inputs        []rt.Value
	Input         string // Inputs rendered
	PathCondition string
	Output        string // the worker's output, for runs that ended the worker
	Isolated      int    // isolated calls the run made (rt.Result.Isolated)
	// Finding numbers the cause of the failure (from 1, see
	// groupFailures): the failures of one finding end the same way.
	// Similar counts, on a finding's first failure (its smallest input),
	// the failing paths of the finding left out of Failures.
	Finding int
	Similar int
	// NilInput marks a nil pointer dereference on an input where a
	// parameter itself (a receiver, an argument) is nil: what Go code
	// commonly does not guard against, reported apart from other failures.
	NilInput bool
	// Deliberate marks a panic of a regression target with a value the
	// code passed to panic itself (not a runtime error): a precondition
	// the code checks, reported apart from other failures.
	Deliberate bool
	// EarlierState marks a failure that did not happen again when its
	// input ran alone in a fresh worker process (Alone): it depends on
	// state that earlier runs left in the worker (a registry that
	// refuses a name registered twice), reported apart from failures.
	EarlierState bool
	// InvalidReceiver marks a nil pointer dereference of a regression
	// target in a run whose input held a value built from the zero value
	// of a type the package never makes so (rt.Result.Unmade): not a
	// value the package's code could be given, reported apart.
	InvalidReceiver bool

	conds []*sym.Expr // the path condition, written into PathCondition by finish
}

// Unsolved is a branch outcome the solver could not decide.
type Unsolved struct {
	Site          uint32
	Taken         bool   // the outcome that was asked for
	PathCondition string // the query: the path up to the branch and the negated branch
	Why           string
}

// Limits on what a report keeps.
const (
	MaxUnsolved        = 20
	MaxDivergenceSites = 5
	MaxDiedFailures    = 10 // failures kept for runs that ended their worker (time-outs, crashes)
	MaxErrors          = 5
)

// node is a run that may be expanded.
type node struct {
	run    int
	inputs []rt.Value
	res    rt.Result
	bound  int      // branches before bound are not negated
	score  int      // branch outcomes this run covered first
	prefix []prefix // prefix[i]: hash of the first i events
	// conds[i] is the condition of event i (whose value is its outcome),
	// nil for a concrete branch. The run's arena is dropped once decoded.
	conds []*sym.Expr
	// retry is the index of a branch this run diverged at whose negation
	// may be asked again although its prefix was tried: the run brought
	// new symbolic detail into its condition (a model refined from run
	// to run, such as a byte comparison whose slice grew). retryWas is the
	// negated condition asked before; retries counts retries along the
	// chain of runs, bounded by maxRetries.
	retry    int
	retryWas *sym.Expr
	retries  int
}

// maxRetries bounds the re-asked negations along one chain of runs.
const maxRetries = 4

// prefix is a hash of a sequence of branch outcomes.
type prefix [2]uint64

// PathKey identifies a path (pathKey): the hash of its explicit branch
// outcomes and its ending.
type PathKey = prefix

func (h prefix) add(site uint32, taken bool) prefix {
	x := uint64(site)<<1 | 1
	if taken {
		x |= 1 << 40
	}
	h[0] = (h[0] ^ x) * 0x100000001b3
	h[1] = (h[1]^x)*0x9e3779b97f4a7c15 + h[0]>>29
	return h
}

var prefix0 = prefix{0xcbf29ce484222325, 0x84222325cbf29ce4}

// child is a run to make: an input and the path it is predicted to take.
type child struct {
	inputs []rt.Value
	parent *node
	flip   int  // the parent's event negated; -1 for an initial input
	mutant bool // made by mutation (see mutate.go)
	// lengthFree marks the solution of a length-free query
	// (lengthfree.go): its run may leave the parent's prefix.
	lengthFree bool
	fuzzed     bool // found by Go's fuzzer (Target.Fuzzed)
	rerun      bool // an input of an earlier search (Target.Inputs)
}

// explorer holds the state of one exploration.
type explorer struct {
	cfg    Config
	target Target
	ex     Executor
	solver Solver
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
func Explore(ctx context.Context, cfg Config, target Target, ex Executor, solver Solver) (*Report, error) {
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
	if e.runs == 0 && len(e.target.Inputs) > 0 && !batch[0].fuzzed {
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

// record takes in the outcome of one run.
func (e *explorer) record(c child, o RunOutcome) {
	e.rep.TargetTime += time.Duration(o.Result.Nanos)
	e.runs++
	e.rep.Runs = e.runs
	res := o.Result
	e.rep.Statuses[res.Status]++
	if o.Died && o.Building {
		// The input was rejected while being built: what the run would
		// have done is unknown, which the verdict says; it is no failure
		// of the target.
		e.hit[ReasonBuildCrash] = true
		e.rep.BuildCrashes++
		return
	}
	if reason, ok := resourceBound(o); ok {
		e.hit[reason] = true
		e.rep.ResourceBounded++
		return
	}
	if o.Died {
		reason := ReasonWorkerExit
		e.hit[reason] = true
		if e.died++; e.died > MaxDiedFailures {
			return
		}
		e.rep.Failures = append(e.rep.Failures, Failure{
			Row: -1, Run: e.runs, Status: res.Status, Messages: res.Messages,
			Inputs: c.inputs, Input: LabeledInputText(e.leaves, c.inputs, e.target.Labels), Output: o.Output,
		})
		return
	}

	n := &node{run: e.runs, inputs: reproducing(c.inputs, res.Nilled), res: res}
	if res.NodeBounded {
		e.rep.NodeBounded = true
	}
	decoded := e.decode(n)
	n.prefix = make([]prefix, len(res.Events)+1)
	n.prefix[0] = prefix0
	fresh := false // a prefix no run reached or query tried
	for i, ev := range res.Events {
		n.prefix[i+1] = n.prefix[i].add(ev.Site, ev.Taken)
		if !e.reached[n.prefix[i+1]] {
			fresh = true
			e.reached[n.prefix[i+1]] = true
		}
		oc := Branch{ev.Site, ev.Taken}
		if !e.covered[oc] {
			e.covered[oc] = true
			e.countOutcome(oc)
			n.score++
		}
	}
	if len(res.Concretized) > 0 {
		e.rep.Concretizations += len(res.Concretized)
		e.hit[ReasonConcretized] = true
		for _, c := range res.Concretized {
			if len(e.rep.ConcretizedAt) < MaxDivergenceSites && !slices.Contains(e.rep.ConcretizedAt, c) {
				e.rep.ConcretizedAt = append(e.rep.ConcretizedAt, c)
			}
		}
	}
	if res.Goroutines {
		e.hit[ReasonGoroutines] = true
	}
	switch {
	case res.AllocBound:
		// Inputs that make the code allocate more than rt.MaxAlloc
		// elements are outside the explored domain, as longer strings
		// are: the verdict names the bound (Report.AllocBounded).
		e.rep.AllocBounded = true
	case res.Truncated || res.Status == rt.StatusBound:
		e.hit[ReasonMaxBranches] = true
	}

	// Divergence: the run must follow the parent's prefix up to the
	// negated branch, and take the negated outcome there.
	if c.parent != nil {
		n.bound = c.flip + 1
		pe := c.parent.res.Events
		for i := 0; i <= c.flip; i++ {
			want := Branch{pe[i].Site, pe[i].Taken != (i == c.flip)}
			if i >= len(res.Events) || (Branch{res.Events[i].Site, res.Events[i].Taken}) != want {
				n.bound = min(i+1, len(res.Events))
				if c.lengthFree {
					break // expected: its query dropped conditions of the prefix
				}
				e.rep.Divergences++
				e.hit[ReasonDivergence] = true
				if len(e.rep.DivergenceSites) < MaxDivergenceSites && !slices.Contains(e.rep.DivergenceSites, want.Site) {
					e.rep.DivergenceSites = append(e.rep.DivergenceSites, want.Site)
				}
				if i == c.flip && i < len(res.Events) && res.Events[i].Site == pe[i].Site &&
					c.parent.retries < maxRetries && c.parent.conds != nil {
					n.bound = i
					n.retry = i
					n.retryWas = e.cond(c.parent, i, !pe[i].Taken)
					n.retries = c.parent.retries + 1
				}
				break
			}
		}
	}

	complete := res.Status != rt.StatusBound && !res.Truncated
	// newPath: a path this search had not taken (it gets a row);
	// found: one no search it continues took either (it is counted).
	newPath, found := false, false
	if complete {
		key := pathKey(res)
		if !e.paths[key] {
			e.paths[key] = true
			e.newPath(n, key)
			newPath = true
			if found = !e.known[key]; found {
				e.rep.Paths++
				e.rep.PathKeys = append(e.rep.PathKeys, key)
			}
		}
	}
	if c.mutant {
		e.mut.runs++
		e.rep.MutantRuns++
		if found {
			e.rep.MutantPaths++
		}
	}
	if c.fuzzed && found {
		e.rep.FuzzedPaths++
	}
	if c.lengthFree {
		e.rep.LengthFreeRuns++
		if found {
			e.rep.LengthFreePaths++
		}
	}
	if c.rerun && found {
		e.rep.RerunPaths++
	}
	if decoded && len(e.mut.ints)+len(e.mut.strs) < 2*maxDict {
		e.mut.harvest(n.conds)
	}
	if n.score > 0 {
		e.mut.lastCover = e.runs
	}
	if n.score > 0 || found {
		e.lastFound = e.runs
	}
	if n.score > 0 || newPath {
		e.mut.keep(n.inputs)
		if c.mutant {
			e.mut.lastNew = e.mut.runs
		}
	}
	if c.mutant && !fresh {
		return // nothing for the concolic search to expand
	}
	if decoded && n.bound < len(res.Events) {
		e.front.push(n)
	}
}

// reproducing is the input that reproduces a run of in whose mock values
// of choice leaves nilled the node bound made nil: in with those leaves 0
// (nil), which generated tests, where no bound applies, see.
func reproducing(in []rt.Value, nilled []int) []rt.Value {
	if len(nilled) == 0 {
		return in
	}
	out := slices.Clone(in)
	for _, l := range nilled {
		if l >= 0 && l < len(out) {
			out[l] = rt.Value{}
		}
	}
	return out
}

// skippedPath is a path that ended in t.Skip.
type skippedPath struct {
	row      Row
	outcomes []Branch
}

func outcomes(res *rt.Result) []Branch {
	out := make([]Branch, 0, len(res.Events))
	for _, ev := range res.Events {
		out = append(out, Branch{ev.Site, ev.Taken})
	}
	return out
}

// newPath records the row and failure of a run that took a new path.
func (e *explorer) newPath(n *node, key prefix) {
	res := &n.res
	if e.rowCovered == nil {
		e.rowCovered = map[Branch]bool{}
	}
	if res.Status == rt.StatusSkip {
		e.skipped = append(e.skipped, skippedPath{
			row:      Row{Run: n.run, Inputs: n.inputs, Status: res.Status, Messages: res.Messages, Outcomes: outcomes(res), Isolated: res.Isolated},
			outcomes: outcomes(res),
		})
	}
	row := -1
	// The path condition is written out at the end, for the rows and
	// failures kept: most rows are dropped, and writing every one took a
	// fifth of a string parser's exploration.
	var cond []*sym.Expr
	switch res.Status {
	case rt.StatusPass, rt.StatusFail, rt.StatusPanic, rt.StatusExit:
		if n.conds != nil {
			cond = e.pathConds(n, len(res.Events))
		}
	}
	switch res.Status {
	case rt.StatusPass, rt.StatusFail, rt.StatusPanic:
		for _, b := range outcomes(res) {
			e.rowCovered[b] = true
		}
		row = len(e.rep.Rows)
		e.rep.Rows = append(e.rep.Rows, Row{
			Run: n.run, Inputs: n.inputs, Status: res.Status, Messages: res.Messages,
			PanicAt: res.PanicAt, conds: cond, Outcomes: outcomes(res), Outputs: res.Outputs,
			Isolated: res.Isolated, MockCalls: res.MockCalls,
		})
	}
	switch res.Status {
	case rt.StatusFail, rt.StatusPanic, rt.StatusExit:
		e.rep.Failures = append(e.rep.Failures, Failure{
			Row: row, Run: n.run, Status: res.Status, Messages: res.Messages, PanicAt: res.PanicAt,
			Inputs: n.inputs, Input: LabeledInputText(e.leaves, n.inputs, e.target.Labels), conds: cond,
			Deliberate: e.target.Regression && res.Status == rt.StatusPanic && !res.RuntimeError,
			InvalidReceiver: e.target.Regression && res.Status == rt.StatusPanic && res.RuntimeError && res.Unmade &&
				strings.Contains(strings.Join(res.Messages, "\n"), "nil pointer dereference"),
			Isolated: res.Isolated,
		})
	}
}

// resourceBound reports whether run outcome o ended its worker on a
// resource bound, and which: the run time bound (the coordinator killed
// the worker), memory (the Go runtime's fatal "out of memory", under
// -max-memory's RLIMIT_DATA or the machine's own limit) or a kill by a
// signal the coordinator did not send (the kernel's out-of-memory
// killer). What the run would have done under go test is unknown, so it
// is no failure of the target: it was once written into the failure table
// ("worker exited"), and a bound too small for any run made every input a
// failure.
func resourceBound(o RunOutcome) (string, bool) {
	if !o.Died || o.Building {
		return "", false
	}
	switch {
	case o.Result.Status == rt.StatusTimeout:
		return ReasonRunTimeout, true
	case strings.Contains(o.Output, "fatal error: runtime: out of memory"),
		strings.Contains(o.Output, "fatal error: out of memory"),
		strings.Contains(o.Output, "fatal error: runtime: cannot allocate memory"),
		allocatorThrow(o.Output),
		runtimeFault(o.Output):
		return ReasonMaxMemory, true
	case slices.ContainsFunc(o.Result.Messages, func(m string) bool { return strings.Contains(m, "signal: killed") }):
		return ReasonWorkerKilled, true
	}
	return "", false
}

// allocatorThrow reports whether output is that of a worker the runtime
// ended from its own memory allocator (a throw in persistentalloc or
// sysAlloc), whose "fatal error" line the captured output may have lost.
func allocatorThrow(output string) bool {
	if !strings.Contains(output, "runtime stack:\nruntime.throw(") {
		return false
	}
	return strings.Contains(output, "\nruntime.persistentalloc") || strings.Contains(output, "\nruntime.sysAlloc")
}

// runtimeFault reports whether output is that of a worker that died of a
// segmentation fault inside the Go runtime's own code (its first frame
// in package runtime): not the target's doing, which the runtime turns
// into a panic, but the runtime failing on memory it could not get, as
// its collector does when RLIMIT_DATA (-max-memory) refuses a mapping.
func runtimeFault(output string) bool {
	_, rest, ok := strings.Cut(output, "SIGSEGV: segmentation violation\n")
	if !ok {
		return false
	}
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "goroutine ") {
			continue
		}
		if strings.HasPrefix(line, "runtime.") {
			return true
		}
		if strings.Contains(line, "(") {
			return false // the first frame, elsewhere
		}
	}
	return false
}

// pathKey identifies a run's path: its explicit branch outcomes and how it
// ended.
func pathKey(res rt.Result) prefix {
	h := prefix0
	for _, ev := range res.Events {
		if !ev.Implicit {
			h = h.add(ev.Site, ev.Taken)
		}
	}
	h = h.add(uint32(res.Status), true)
	for _, b := range []byte(res.PanicAt) {
		h = h.add(uint32(b), false)
	}
	return h
}

// decode turns the arena of n's run into the conditions of its events
// and drops the arena. It reports false (and records an internal error) if
// the arena is malformed.
//
// A run's trace comes from instrumented code: a condition that is no bool
// (a shadow attached to the wrong value) or a term the builder rejects
// makes the run concrete, like a concretization, and is reported once per
// target as an internal error; it never stops dowse.
func (e *explorer) decode(n *node) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			n.conds = nil
			e.malformed(n, fmt.Errorf("%v", r))
			ok = false
		}
	}()
	terms, err := e.sym.Decode(n.res.Nodes)
	n.res.Nodes = nil
	if err != nil {
		e.malformed(n, err)
		return false
	}
	conds := make([]*sym.Expr, len(n.res.Events))
	for i, ev := range n.res.Events {
		if ev.Cond == 0 || int(ev.Cond) >= len(terms) {
			continue
		}
		t := terms[ev.Cond]
		if t.Kind() != rt.KBool {
			e.malformed(n, fmt.Errorf("branch %d: condition of kind %v", i, t.Kind()))
			return false
		}
		conds[i] = t
	}
	n.conds = conds
	return true
}

// malformed records that run n's trace could not be turned into
// conditions: the first time for the target as an internal error.
func (e *explorer) malformed(n *node, err error) {
	e.hit[ReasonInternal] = true
	if e.malformedRuns++; e.malformedRuns == 1 {
		e.rep.Errors = append(e.rep.Errors, fmt.Sprintf("run %d: %v", n.run, err))
	}
}

// cond is the condition under which event i of n takes outcome taken, nil
// for a concrete branch.
func (e *explorer) cond(n *node, i int, taken bool) *sym.Expr {
	t := n.conds[i]
	if t != nil && !taken {
		t = e.sym.Not(t)
	}
	return t
}

// pathConds is the path condition of the first k events of n's run,
// without the conditions that are trivially true.
func (e *explorer) pathConds(n *node, k int) []*sym.Expr {
	var conds []*sym.Expr
	for i, ev := range n.res.Events[:k] {
		if t := e.cond(n, i, ev.Taken); t != nil && !t.IsTrue() {
			conds = append(conds, t)
		}
	}
	return conds
}

// expand negates the branches of n after its bound, one at a time, and
// returns the children whose inputs the solver found.
func (e *explorer) expand(ctx context.Context, n *node) ([]child, error) {
	events := n.res.Events
	var kids []child
	var path []*sym.Expr // the path condition up to event j
	asked := 0
	began := time.Now()
	for j := 0; j < len(events); j++ {
		ev := events[j]
		if n.conds[j] == nil {
			continue
		}
		if j < n.bound {
			if t := e.cond(n, j, ev.Taken); !t.IsTrue() {
				path = append(path, t)
			}
			continue
		}
		flipped := e.cond(n, j, !ev.Taken)
		key := n.prefix[j].add(ev.Site, !ev.Taken)
		again := j == n.retry && n.retryWas != nil && (moreInputs(flipped, n.retryWas) || flipped.Size() > n.retryWas.Size())
		if (!e.reached[key] || again) && !flipped.IsFalse() {
			if asked >= maxQueriesPerExpand || asked > 0 && time.Since(began) > expandSlice && e.sharing() {
				// The rest of this run's branches later: its children
				// run first, and mutants may take their turn.
				n.bound = j
				e.front.push(n)
				break
			}
			asked++
			if e.cfg.MaxRuns > 0 && e.runs+len(kids) >= e.cfg.MaxRuns {
				e.halt(ReasonMaxRuns)
				break
			}
			if !e.checkTime(ctx) {
				break
			}
			e.reached[key] = true
			q := &Query{Conds: append(path[:len(path):len(path)], flipped), Leaves: e.leaves, Seed: n.inputs, Timeout: e.cfg.SolverTimeout}
			ans, err := e.solve(ctx, q)
			if err == errInterrupted {
				e.interrupted(ctx)
				break
			}
			if err != nil {
				return nil, fmt.Errorf("solving for %s: %w", e.target.Name, err)
			}
			switch ans.Verdict {
			case Unsat:
				e.infeasible[Branch{ev.Site, !ev.Taken}] = true
				if len(e.boundChecks) < 4*maxBoundChecks && hasLengthBound(e.leaves) {
					e.boundChecks = append(e.boundChecks, boundCandidate{site: ev.Site, taken: !ev.Taken, conds: q.Conds, seed: n.inputs})
				}
				if kid, ok, err := e.lengthFree(ctx, n, j, q, &asked); err != nil {
					return nil, err
				} else if ok {
					kids = append(kids, kid)
				}
			case Sat:
				if len(ans.Model) != len(e.leaves) {
					return nil, fmt.Errorf("solver returned %d values for %d leaves", len(ans.Model), len(e.leaves))
				}
				kids = append(kids, child{inputs: ans.Model, parent: n, flip: j})
			case Unknown:
				if len(e.rep.Unsolved) < MaxUnsolved {
					e.rep.Unsolved = append(e.rep.Unsolved, Unsolved{
						Site: ev.Site, Taken: !ev.Taken, PathCondition: sym.FormatAll(q.Conds, e.leaves), Why: ans.Why,
					})
				}
			}
		} else if flipped.IsFalse() {
			e.rep.Unsat++ // infeasible by simplification alone
			e.infeasible[Branch{ev.Site, !ev.Taken}] = true
		}
		if t := e.cond(n, j, ev.Taken); !t.IsTrue() {
			path = append(path, t)
		}
	}
	return kids, nil
}

// maxQueriesPerExpand bounds the queries of one expansion: a run with
// hundreds of branches (and a slow solver) is expanded in slices, so that
// its children run early and the search stays responsive (mutants get
// their turns between slices).
const maxQueriesPerExpand = 16

// expandSlice bounds the time of one expansion while mutants share the
// time (see sharing): a few solver time-outs in a row would otherwise
// hold the search for the rest of the budget.
const expandSlice = time.Second

// errInterrupted says that a query was cut short by the time bound or a
// cancellation.
var errInterrupted = errors.New("interrupted")

// solve asks the solver and keeps the statistics.
func (e *explorer) solve(ctx context.Context, q *Query) (Answer, error) {
	if e.solver == nil {
		e.hit[ReasonNoSolver] = true
		return Answer{Verdict: Unknown, Why: "no solver"}, nil
	}
	ans, err := e.ask(ctx, q)
	if err == nil && ans.Verdict == Unknown {
		if ans.TimedOut {
			e.hit[ReasonSolverTimeout] = true
		} else {
			e.hit[ReasonSolverUnknown] = true
		}
	}
	return ans, err
}

// ask asks the solver and keeps the statistics, as solve does, except
// that an undecided answer is not a reason the search is incomplete: the
// caller's verdict does not rest on it (a length-free query).
func (e *explorer) ask(ctx context.Context, q *Query) (Answer, error) {
	if e.solver == nil {
		return Answer{Verdict: Unknown, Why: "no solver"}, nil
	}
	bctx := e.bounded(ctx)
	t0 := time.Now()
	ans, err := e.solver.Solve(bctx, q)
	e.rep.SolverTime += time.Since(t0)
	e.rep.Queries++
	if bctx.Err() != nil {
		// The time bound or a cancellation cut the query short: its
		// answer says nothing about the branch.
		return Answer{}, errInterrupted
	}
	if err != nil {
		return ans, err
	}
	if ans.Cached {
		e.rep.CacheHits++
	}
	switch ans.Verdict {
	case Sat:
		e.rep.Sat++
	case Unsat:
		e.rep.Unsat++
	default:
		e.rep.UnknownAnswers++
	}
	return ans, nil
}

// sortBranches sorts outcomes by site, false before true.
func sortBranches(bs []Branch) {
	sort.Slice(bs, func(i, j int) bool {
		a, b := bs[i], bs[j]
		if a.Site != b.Site {
			return a.Site < b.Site
		}
		return !a.Taken && b.Taken
	})
}

// finish fills in the verdict.
func (e *explorer) finish() {
	rep := e.rep
	if e.target.Regression {
		groupFailures(rep, e.leaves, 1, 0)
	} else {
		groupFailures(rep, e.leaves, MaxPerFinding, MaxFailures)
	}
	if !e.cfg.RowPerPath {
		limit := 0
		if e.target.Regression {
			limit = MaxRegressionRows
		}
		coverRows(rep, limit)
	}
	// A path that ends in t.Skip is kept as a row (which skips when run)
	// only if it reaches a branch outcome no other row reaches: code that
	// only inputs violating an assumption execute (a not-found return
	// behind a "skip unless found" assumption) is covered by the emitted
	// tests too.
	for _, s := range e.skipped {
		fresh := false
		for _, b := range s.outcomes {
			if !e.rowCovered[b] {
				fresh = true
				e.rowCovered[b] = true
			}
		}
		if fresh {
			rep.Rows = append(rep.Rows, s.row)
		}
	}
	for i := range rep.Rows {
		if r := &rep.Rows[i]; r.conds != nil {
			r.PathCondition, r.conds = sym.FormatAll(r.conds, e.leaves), nil
		}
	}
	for i := range rep.Failures {
		if f := &rep.Failures[i]; f.conds != nil {
			f.PathCondition, f.conds = sym.FormatAll(f.conds, e.leaves), nil
		}
	}
	rep.Elapsed = time.Since(e.start)
	rep.Pool = e.mut.pool
	for oc := range e.covered {
		rep.Covered = append(rep.Covered, oc)
	}
	sortBranches(rep.Covered)
	for oc := range e.infeasible {
		if !e.covered[oc] {
			rep.Infeasible = append(rep.Infeasible, oc)
		}
	}
	sortBranches(rep.Infeasible)
	for _, r := range reasonOrder {
		if e.hit[r] {
			rep.Incomplete = append(rep.Incomplete, r)
		}
	}
	switch {
	case e.stop != "":
		rep.StopReason = e.stop
	case len(rep.Incomplete) == 0:
		rep.StopReason = StopExhausted
		rep.Exhaustive = true
	default:
		rep.StopReason = rep.Incomplete[0]
	}
}

// distinctInputs is an input vector of small, distinct, non-zero values:
// leaf i gets i+2 (integers, masked to their width; floats i+2.5, whose
// fraction tells a float computation from an integer one), strings a short
// distinct word, lengths 1, choices "non-nil", bools alternate. A
// regression row whose values come from it tells more computations apart
// than one of zeros, where x+y, x*y and x-y all agree.
func distinctInputs(leaves []rt.Leaf) []rt.Value {
	in := make([]rt.Value, len(leaves))
	for i, l := range leaves {
		switch {
		case l.Choice:
			in[i].Bits = 1
		case l.IsLen:
			in[i].Bits = uint64(min(1, l.Max))
		case l.K == rt.KBool:
			in[i].Bits = uint64(i % 2)
		case l.K == rt.KString:
			w := string(rune('a'+i%26)) + string(rune('a'+(i/26)%26))
			in[i].Str = w[:min(len(w), l.Max)]
		case l.Float && l.K == rt.KUint32:
			in[i].Bits = uint64(math.Float32bits(float32(i+2) + 0.5))
		case l.Float:
			in[i].Bits = math.Float64bits(float64(i+2) + 0.5)
		default:
			v := uint64(i + 2)
			if b := l.K.Bits(); b < 64 {
				v &= 1<<uint(b) - 1
			}
			in[i].Bits = v
		}
	}
	return in
}

// zeroInputs is the input vector of zero values.
func zeroInputs(leaves []rt.Leaf) []rt.Value {
	return make([]rt.Value, len(leaves))
}

// SeedInputs turns seeds (Go values of a fuzz target's parameters: int64,
// uint64, bool, string, []byte) into input vectors for leaves. Seeds that
// do not fit the layout (another number of parameters, a string or slice
// longer than the length bound) are left out.
func SeedInputs(leaves []rt.Leaf, seeds [][]any) [][]rt.Value {
	var out [][]rt.Value
	for _, seed := range seeds {
		if in, ok := seedInput(leaves, seed); ok && !slices.ContainsFunc(out, func(o []rt.Value) bool { return slices.Equal(o, in) }) {
			out = append(out, in)
		}
	}
	return out
}

func seedInput(leaves []rt.Leaf, seed []any) ([]rt.Value, bool) {
	in := make([]rt.Value, 0, len(leaves))
	i := 0
	next := func() (rt.Leaf, bool) {
		if i >= len(leaves) {
			return rt.Leaf{}, false
		}
		i++
		return leaves[i-1], true
	}
	for _, v := range seed {
		l, ok := next()
		if !ok {
			return nil, false
		}
		switch v := v.(type) {
		case bool:
			if l.K != rt.KBool {
				return nil, false
			}
			in = append(in, rt.Value{Bits: boolBits(v)})
		case int64:
			if !l.K.Integer() || l.IsLen || l.Float {
				return nil, false
			}
			in = append(in, rt.Value{Bits: truncate(l.K, uint64(v))})
		case float64:
			switch {
			case l.Float && l.K == rt.KUint32:
				in = append(in, rt.Value{Bits: uint64(math.Float32bits(float32(v)))})
			case l.Float:
				in = append(in, rt.Value{Bits: math.Float64bits(v)})
			default:
				return nil, false
			}
		case uint64:
			if !l.K.Integer() || l.IsLen || l.Float {
				return nil, false
			}
			in = append(in, rt.Value{Bits: truncate(l.K, v)})
		case string:
			if l.K != rt.KString || len(v) > l.Max {
				return nil, false
			}
			in = append(in, rt.Value{Str: v})
		case []byte:
			if !l.IsLen || len(v) > l.Max {
				return nil, false
			}
			in = append(in, rt.Value{Bits: uint64(len(v))})
			for j := 0; j < l.Max; j++ {
				el, ok := next()
				if !ok || el.K != rt.KUint8 {
					return nil, false
				}
				var b byte
				if j < len(v) {
					b = v[j]
				}
				in = append(in, rt.Value{Bits: uint64(b)})
			}
		default:
			return nil, false
		}
	}
	if len(in) != len(leaves) {
		return nil, false
	}
	return in, true
}

func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// truncate keeps the low bits of v that kind k has.
func truncate(k rt.Kind, v uint64) uint64 {
	if b := k.Bits(); b > 0 && b < 64 {
		return v & (1<<uint(b) - 1)
	}
	return v
}

// moreInputs reports whether condition a mentions an input b does not.
// With a larger condition, it is the sign that a run brought new symbolic
// detail into a branch's condition (a model refined from run to run).
func moreInputs(a, b *sym.Expr) bool {
	old := map[int]bool{}
	for _, v := range b.Vars() {
		old[v] = true
	}
	for _, v := range a.Vars() {
		if !old[v] {
			return true
		}
	}
	return false
}

// coverRows reduces the passing rows of rep to a few that together reach
// every branch outcome the passing rows reach, chosen greedily (most new
// outcomes first, earliest on ties, so the choice is deterministic). Rows
// that fail or panic are all kept. Failure.Row indices follow the rows
// they name.
//
// With limit > 0 (regression targets), further passing rows are kept in
// the order found until limit passing rows are kept: paths that reach no
// new outcome still return different results.
func coverRows(rep *Report, limit int) {
	// Failing rows live in a table that skips by default, so they do not
	// count: the passing rows alone reach what all passing rows reach.
	reached := map[Branch]bool{}
	keep := make([]bool, len(rep.Rows))
	for i, r := range rep.Rows {
		keep[i] = r.Status != rt.StatusPass
	}
	for {
		best, bestNew := -1, 0
		for i, r := range rep.Rows {
			if keep[i] {
				continue
			}
			fresh := 0
			seen := map[Branch]bool{}
			for _, b := range r.Outcomes {
				if !reached[b] && !seen[b] {
					seen[b] = true
					fresh++
				}
			}
			if fresh > bestNew {
				best, bestNew = i, fresh
			}
		}
		if best < 0 {
			break
		}
		keep[best] = true
		for _, b := range rep.Rows[best].Outcomes {
			reached[b] = true
		}
	}
	if len(rep.Rows) > 0 && !slices.Contains(keep, true) {
		keep[0] = true // a target without branches still gets its row
	}
	kept := 0
	for i, r := range rep.Rows {
		if keep[i] && r.Status == rt.StatusPass {
			kept++
		}
	}
	for i, r := range rep.Rows {
		if kept >= limit {
			break
		}
		if !keep[i] && r.Status == rt.StatusPass {
			keep[i] = true
			kept++
		}
	}
	index := make([]int, len(rep.Rows))
	var rows []Row
	for i, r := range rep.Rows {
		index[i] = -1
		if keep[i] {
			index[i] = len(rows)
			rows = append(rows, r)
		}
	}
	for i := range rep.Failures {
		if f := &rep.Failures[i]; f.Row >= 0 {
			f.Row = index[f.Row]
		}
	}
	rep.Rows = rows
}

// maxBoundChecks bounds the infeasible branches checkBounds asks about.
const maxBoundChecks = 16

// boundCandidate is an infeasible branch and the query that said so.
type boundCandidate struct {
	site  uint32
	taken bool
	conds []*sym.Expr
	seed  []rt.Value // the input of the run the branch was negated in
}

// hasLengthBound reports whether some leaf is a string or slice length,
// whose domain -max-len bounds.
func hasLengthBound(leaves []rt.Leaf) bool {
	return slices.ContainsFunc(leaves, func(l rt.Leaf) bool { return l.IsLen || l.K == rt.KString })
}

// checkBounds asks, for the branch outcomes found infeasible that no run
// reached (the first maxBoundChecks), whether they are feasible with longer strings and
// slices (lengths up to relaxedMax, or up to the longest length the
// branch's conditions name, lengthHint): a path that only a longer input takes
// is reported, with the lengths one solution needs, so that the verdict
// says which bound it holds for and what to raise. The questions are
// asked while the time bound allows; their answers are never run.
func (e *explorer) checkBounds(ctx context.Context) {
	if len(e.boundChecks) == 0 || e.solver == nil {
		return
	}
	relax := func(c boundCandidate) []rt.Leaf {
		hint := lengthHint(c.conds, e.leaves)
		relaxed := slices.Clone(e.leaves)
		for i, l := range relaxed {
			// Lengths and strings; not the choices that are leaves like
			// lengths (a dynamic type, a built value's method), whose range
			// is the number of alternatives, not a bound.
			if l.IsLen && len(l.Steps) > 0 && l.Steps[len(l.Steps)-1].Kind == rt.StepLen || l.K == rt.KString {
				relaxed[i].Max = max(relaxedMax(l.Max), min(hint, maxRelaxed))
			}
		}
		return relaxed
	}
	seen := map[Branch]bool{}
	// An outcome some run reached (a loop that would go round once more,
	// a helper called once more) is no news: it is not reported. A caller
	// that may raise the bound still learns about the first of them
	// (Report.Longer), when no outcome is news.
	var reached []boundCandidate
	for _, c := range e.boundChecks {
		b := Branch{c.site, c.taken}
		if seen[b] || !e.checkTime(ctx) {
			continue
		}
		if e.covered[b] {
			if len(reached) == 0 {
				reached = append(reached, c)
			}
			continue
		}
		if len(seen) == maxBoundChecks {
			break
		}
		seen[b] = true
		if l, ok := e.longer(ctx, c, relax(c)); ok {
			e.rep.BoundLimited = append(e.rep.BoundLimited, l)
		}
	}
	if e.cfg.Raisable && len(e.rep.BoundLimited) == 0 {
		for _, c := range reached {
			if l, ok := e.longer(ctx, c, relax(c)); ok {
				e.rep.Longer = append(e.rep.Longer, l)
			}
		}
	}
}

// longer asks whether the outcome of candidate c is feasible with the
// relaxed leaves and, if a solution needs inputs longer than the bound,
// returns it.
func (e *explorer) longer(ctx context.Context, c boundCandidate, relaxed []rt.Leaf) (BoundLimited, bool) {
	// Asked directly: an unknown answer here must not change the
	// verdict, which is about the bounded domain.
	q := &Query{Conds: c.conds, Leaves: relaxed, Seed: c.seed, Timeout: e.cfg.SolverTimeout}
	t0 := time.Now()
	ans, err := e.solver.Solve(e.bounded(ctx), q)
	e.rep.SolverTime += time.Since(t0)
	e.rep.Queries++
	if err != nil || ans.Verdict != Sat || len(ans.Model) != len(relaxed) {
		return BoundLimited{}, false
	}
	var lengths []string
	need := 0
	for i, l := range e.leaves {
		n := -1
		switch {
		case l.IsLen:
			n = int(signExtend(l.K, ans.Model[i].Bits))
		case l.K == rt.KString:
			n = len(ans.Model[i].Str)
		}
		if n > l.Max {
			need = max(need, n)
			path := l.Path
			if l.K == rt.KString {
				path = "len(" + path + ")"
			}
			lengths = append(lengths, fmt.Sprintf("%s=%d", path, n))
		}
	}
	if len(lengths) == 0 {
		return BoundLimited{}, false
	}
	return BoundLimited{Site: c.site, Taken: c.taken, Lengths: lengths, Need: need, Inputs: ans.Model}, true
}

// MaxRegressionRows bounds the passing rows kept for a regression target
// (beyond those needed to reach every branch outcome).
const MaxRegressionRows = 32

// MaxFailures bounds the failures of a PUT or fuzz target that are kept
// (with their rows); a search that mutates inputs can find thousands of
// failing paths of one bug.
// MaxFailures bounds the failures a PUT or fuzz target keeps (see
// groupFailures).
const MaxFailures = 32

// dropRows removes the rows in drop and renumbers the failures' rows.
func dropRows(rep *Report, drop map[int]bool) {
	if len(drop) == 0 {
		return
	}
	index := make([]int, len(rep.Rows))
	var rows []Row
	for i, r := range rep.Rows {
		index[i] = -1
		if !drop[i] {
			index[i] = len(rows)
			rows = append(rows, r)
		}
	}
	rep.Rows = rows
	for i := range rep.Failures {
		if f := &rep.Failures[i]; f.Row >= 0 {
			f.Row = index[f.Row]
		}
	}
}

// nilParam reports whether a parameter itself is nil in the input vector
// in: its choice leaf, the first step of its path, is false, or, for an
// interface, its dynamic type leaf is 0 (nil).
func nilParam(leaves []rt.Leaf, in []rt.Value) bool {
	for i, l := range leaves {
		if len(l.Steps) != 1 || i >= len(in) {
			continue
		}
		if l.Choice && in[i].Bits&1 == 0 || l.Steps[0].Kind == rt.StepType && in[i].Bits == 0 {
			return true
		}
	}
	return false
}
