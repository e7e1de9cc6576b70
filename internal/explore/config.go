package explore

import (
	"time"

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
