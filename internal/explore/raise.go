package explore

import (
	"context"
	"slices"
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/rt"
)

// Raise says how ExploreRaising may raise the length bound of strings and
// slices.
type Raise struct {
	From int // the bound to start with (-max-len)
	Cap  int // the highest bound it may raise to; at most From: never raise
	// Start starts an executor whose layout has length bound maxLen; the
	// function returned closes it.
	Start func(maxLen int) (Executor, func(), error)
	// Fuzz, if set, hands a fuzz target (Target.Fuzz) to Go's fuzzer for
	// part of cfg.MaxTime (the hybrid phase): it fuzzes for d, seeded with
	// the passing inputs found (vectors for leaves), and returns the inputs
	// the fuzzer found (Go values, as seeds). FuzzShare is the share of the
	// time bound the fuzzer gets.
	Fuzz      func(ctx context.Context, leaves []rt.Leaf, passing [][]rt.Value, d time.Duration) ([][]any, error)
	FuzzShare float64
	// MinFuzzTime, if not 0, replaces the package's MinFuzzTime.
	MinFuzzTime time.Duration
	// FuzzedCap is the longest string or byte slice of the fuzzer's
	// inputs that the bound is raised to fit (at least Cap).
	FuzzedCap int
}

// MinFuzzTime is the shortest share of the time bound for which Go's
// fuzzer is worth building and starting (its build, and the baseline run
// of its corpus, take seconds); with less, the concolic search keeps all
// of the time.
const MinFuzzTime = 10 * time.Second

// Hybrid reports whether a fuzz target with time bound maxTime gets a
// hybrid phase with share of the time.
func Hybrid(maxTime time.Duration, share float64) bool {
	return hybrid(maxTime, share, MinFuzzTime)
}

func hybrid(maxTime time.Duration, share float64, least time.Duration) bool {
	return maxTime > 0 && share > 0 && share < 1 && time.Duration(float64(maxTime)*share) >= least
}

// hybrid reports whether r hands target to Go's fuzzer within cfg's time.
func (r Raise) hybrid(cfg Config, target Target) bool {
	least := MinFuzzTime
	if r.MinFuzzTime > 0 {
		least = r.MinFuzzTime
	}
	return r.Fuzz != nil && target.Fuzz && hybrid(cfg.MaxTime, r.FuzzShare, least)
}

// ExploreRaising explores target as Explore does, with a length bound
// that grows, up to r.Cap, when the search shows that longer inputs
// matter:
//
//   - before the search, when seeds the target added (f.Add) are longer
//     than the bound, it is raised to fit the longest that fits r.Cap;
//   - when a search ends with its paths exhausted but branch outcomes
//     that only longer inputs reach (Report.BoundLimited), the target is
//     explored again with the bound raised to the relaxed bound the check
//     searched (relaxedMax), or more if those solutions need it, in the
//     time and runs left, starting from the rows and failures found so
//     far and from the solutions.
//
// The report is the last search's, with the work of all of them counted;
// Report.MaxLen is the bound the verdict holds for.
//
// With r.Fuzz set, a fuzz target's searches end at (1 - r.FuzzShare) of
// the time bound; then, unless they were exhaustive or stopped at the run
// bound, Go's fuzzer runs for most of what is left, seeded with the
// passing inputs found, and a last search starts from the inputs it found
// (Target.Fuzzed) and the rows so far, with the bound raised to fit them
// (up to r.FuzzedCap).
func ExploreRaising(ctx context.Context, cfg Config, target Target, r Raise, solver query.Solver) (*Report, error) {
	start := time.Now()
	maxLen := r.From
	var total Report
	hybrid := r.hybrid(cfg, target)
	budget := cfg.MaxTime // of the searches before the fuzzer
	if hybrid {
		budget = time.Duration(float64(cfg.MaxTime) * (1 - r.FuzzShare))
	}
	var fuzz *FuzzReport
	earlier := 0     // paths the searches before the fuzzer found
	var prev *Report // the search before this one
	for phase := 0; ; phase++ {
		ex, closeEx, err := r.Start(maxLen)
		if err != nil {
			return nil, err
		}
		if sd, ok := ex.(Seeder); ok && phase == 0 && maxLen < r.Cap {
			// The runtime seeds are known once a worker has run the
			// target's f.Add calls.
			if _, err := ex.Leaves(ctx); err != nil {
				closeEx()
				return nil, err
			}
			if need := seedsNeed(slices.Concat(target.Seeds, sd.Seeds()), r.Cap); need > maxLen {
				closeEx()
				maxLen = need
				if ex, closeEx, err = r.Start(maxLen); err != nil {
					return nil, err
				}
			}
		}
		c := cfg
		c.Raisable = maxLen < r.Cap
		if cfg.MaxTime > 0 {
			c.MaxTime = max(budget-time.Since(start), time.Millisecond)
		}
		if cfg.MaxRuns > 0 {
			c.MaxRuns = cfg.MaxRuns - total.Runs
		}
		c.Progress = withRunsBefore(cfg.Progress, total.Runs)
		rep, err := Explore(ctx, c, target, ex, solver)
		closeEx()
		if err != nil {
			return nil, err
		}
		accumulate(&total, rep)
		if rep.StartCut && prev != nil {
			// Stopped before it had run the rows of the search before
			// it again: that search's report stands, with the work of
			// all counted.
			prev.Canceled()
			prev.Runs, prev.Queries, prev.Sat, prev.Unsat = total.Runs, total.Queries, total.Sat, total.Unsat
			prev.UnknownAnswers, prev.CacheHits, prev.Divergences = total.UnknownAnswers, total.CacheHits, total.Divergences
			prev.SolverTime, prev.TargetTime, prev.Elapsed = total.SolverTime, total.TargetTime, time.Since(start)
			prev.Fuzzer = fuzz
			return prev, nil
		}
		prev = rep
		rep.MaxLen = maxLen
		if maxLen > r.From {
			rep.RaisedFrom = r.From
		}
		// Outcomes reached already but along other paths with longer
		// inputs are reason enough while most of the time is left.
		plenty := c.MaxTime <= 0 || rep.Elapsed < c.MaxTime/4
		next := raisedBound(rep, maxLen, r.Cap, plenty)
		if fuzz == nil && hybrid && next == 0 && !rep.Exhaustive && rep.StopReason != ReasonMaxRuns && rep.StopReason != ReasonCanceled && rep.StopReason != ReasonPlateau && ctx.Err() == nil {
			// The hybrid phase: Go's fuzzer gets most of the time left.
			// The last search, which first runs the rows found so far
			// again, gets a fifth of it, or twice what those runs took
			// on average, if more.
			left := cfg.MaxTime - time.Since(start)
			rerun := time.Duration(0)
			if total.Runs > 0 {
				rerun = 2 * total.TargetTime / time.Duration(total.Runs) * time.Duration(len(rep.Rows)+len(rep.Failures))
			}
			if d := left - max(left/5, rerun); d >= time.Second {
				fuzz = &FuzzReport{}
				var passing [][]rt.Value
				for _, row := range rep.Rows {
					if row.Status == rt.StatusPass {
						passing = append(passing, row.Inputs)
					}
				}
				t0 := time.Now()
				found, err := r.Fuzz(ctx, rep.Leaves, passing, d)
				fuzz.Time, fuzz.Seeds, fuzz.Inputs = time.Since(t0), len(passing), len(found)
				if err != nil {
					fuzz.Err = err.Error()
				}
				if len(found) > 0 {
					earlier = rep.Paths
					budget = cfg.MaxTime
					target.Inputs, target.From = nextInputs(rep), rep.Leaves
					target.Fuzzed = found
					maxLen = max(maxLen, seedsNeed(found, max(r.FuzzedCap, r.Cap)))
					continue
				}
			}
		}
		if next == 0 || (c.MaxTime > 0 && time.Since(start) >= budget) || (cfg.MaxRuns > 0 && total.Runs >= cfg.MaxRuns) {
			rep.Runs, rep.Queries, rep.Sat, rep.Unsat = total.Runs, total.Queries, total.Sat, total.Unsat
			rep.UnknownAnswers, rep.CacheHits, rep.Divergences = total.UnknownAnswers, total.CacheHits, total.Divergences
			rep.SolverTime, rep.TargetTime, rep.Elapsed = total.SolverTime, total.TargetTime, time.Since(start)
			if fuzz != nil {
				fuzz.Paths = rep.FuzzedPaths
			}
			if target.Fuzzed != nil {
				// The searches before the fuzzer's found paths the last
				// one only ran again (its rows).
				rep.Paths += earlier - rep.RerunPaths
			}
			rep.Fuzzer = fuzz
			return rep, nil
		}
		// The next search starts from what this one found.
		target.Inputs, target.From = nextInputs(rep), rep.Leaves
		maxLen = next
	}
}

// nextInputs are the inputs a search after rep starts from: its rows,
// failures and the solutions that needed a longer bound.
func nextInputs(rep *Report) [][]rt.Value {
	var inputs [][]rt.Value
	for _, row := range rep.Rows {
		inputs = append(inputs, row.Inputs)
	}
	for _, f := range rep.Failures {
		inputs = append(inputs, f.Inputs)
	}
	for _, b := range append(rep.BoundLimited, rep.Longer...) {
		inputs = append(inputs, b.Inputs)
	}
	return inputs
}

// FuzzReport tells what the hybrid phase (Raise.Fuzz) did.
type FuzzReport struct {
	Time   time.Duration // spent in Go's fuzzer (building it included)
	Seeds  int           // passing inputs it started from
	Inputs int           // inputs it found (kept for coverage, or failing)
	Paths  int           // paths those inputs took first
	Err    string        // why it stopped early, if it did
}

// accumulate adds the work counted in rep to total.
func accumulate(total, rep *Report) {
	total.Runs += rep.Runs
	total.Queries += rep.Queries
	total.Sat += rep.Sat
	total.Unsat += rep.Unsat
	total.UnknownAnswers += rep.UnknownAnswers
	total.CacheHits += rep.CacheHits
	total.Divergences += rep.Divergences
	total.SolverTime += rep.SolverTime
	total.TargetTime += rep.TargetTime
}

// raisedBound is the bound the next search should have after rep (0: no
// next search): rep's paths were exhausted, some branch outcome no run
// reached needs longer inputs (or, with plenty of time left, one reached
// along other paths does), and the bound may still grow.
func raisedBound(rep *Report, maxLen, limit int, plenty bool) int {
	reasons := rep.BoundLimited
	if len(reasons) == 0 && plenty {
		reasons = rep.Longer
	}
	if maxLen >= limit || len(reasons) == 0 {
		return 0
	}
	switch rep.StopReason {
	case ReasonMaxTime, ReasonBudget, ReasonCanceled, ReasonMaxRuns:
		return 0
	}
	// The bound check found those solutions among lengths up to
	// relaxedMax(maxLen): raise to that whole domain, not to the lengths of
	// the solutions, which are minimal (a 12-byte header for a parser that
	// goes on reading records after it). A bound that only just fits one
	// branch makes the next search stop at the next length check.
	need := relaxedMax(maxLen)
	for _, b := range reasons {
		need = max(need, b.Need)
	}
	return min(need, limit)
}

// seedsNeed is the length bound that fits the longest string or byte slice
// of the seeds that are at most limit long.
func seedsNeed(seeds [][]any, limit int) int {
	need := 0
	for _, seed := range seeds {
		n := 0
		for _, v := range seed {
			switch v := v.(type) {
			case string:
				n = max(n, len(v))
			case []byte:
				n = max(n, len(v))
			}
		}
		if n <= limit {
			need = max(need, n)
		}
	}
	return need
}

// translate maps an input vector for the leaves from onto the leaves to,
// leaf by path: a leaf of to that from does not have (an element beyond
// an earlier bound) is zero, and lengths are kept within to's bounds.
func translate(from, to []rt.Leaf, in []rt.Value) []rt.Value {
	at := make(map[string]int, len(from))
	for i, l := range from {
		at[l.Path] = i
	}
	out := make([]rt.Value, len(to))
	for i, l := range to {
		j, ok := at[l.Path]
		if !ok || j >= len(in) {
			continue
		}
		v := in[j]
		switch {
		case l.IsLen && int64(v.Bits) > int64(l.Max):
			v.Bits = uint64(l.Max)
		case l.K == rt.KString && len(v.Str) > l.Max:
			v.Str = v.Str[:l.Max]
		}
		out[i] = v
	}
	return out
}
