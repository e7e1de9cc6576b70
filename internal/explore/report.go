package explore

import (
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

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
	ReasonPlateau     = "plateau"
	ReasonCanceled    = "canceled"
	ReasonMaxBranches = "max-branches"
	// ReasonRecursion: the branch bound stopped runs while one function
	// was deep on the call stack (rt.Result.Recursion): input-driven
	// recursion, named in Report.Recursion.
	ReasonRecursion     = "recursion-depth"
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
	ReasonMaxRuns, ReasonMaxTime, ReasonBudget, ReasonPlateau, ReasonCanceled, ReasonMaxBranches, ReasonRecursion,
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
	// Recursion names the function deepest on the call stack when the
	// branch bound stopped a run (ReasonRecursion), with that depth: the
	// deepest over the runs.
	Recursion      string
	RecursionDepth int
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
	// StartCut is set when the search was stopped (its context ended)
	// before it had run all the inputs of an earlier search it started
	// from (Target.Inputs): its rows and paths are then not a
	// continuation of that search, which a later one should continue
	// instead (ResumeAfter).
	StartCut bool
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

// MaxRegressionRows bounds the passing rows kept for a regression target
// (beyond those needed to reach every branch outcome).
const MaxRegressionRows = 32

// MaxFailures bounds the failures of a PUT or fuzz target that are kept
// (with their rows); a search that mutates inputs can find thousands of
// failing paths of one bug.
// MaxFailures bounds the failures a PUT or fuzz target keeps (see
// groupFailures).
const MaxFailures = 32
