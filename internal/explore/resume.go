package explore

import (
	"slices"
	"sort"

	"github.com/dowse-go/dowse/rt"
)

// Resume is what a search cut short by the whole-run budget leaves for a
// later one to continue from: the inputs of its rows and failures (and
// of the branches longer inputs reach), the leaves they are for, and
// what it had done. A later search starts from those inputs, as a search
// with a raised length bound starts from the one before it: running
// them gives back its rows, failures, branch outcomes and mutation pool,
// and the solver expands their paths again, so that the time spent
// before is not spent again finding them.
type Resume struct {
	Leaves []rt.Leaf
	Inputs [][]rt.Value
	MaxLen int // the length bound of the search (0: none raised)
	// Runs and Paths count the runs and distinct paths of the searches
	// it continues, Covered their branch outcomes, Known their paths
	// (the first maxKnown: paths beyond them that a later search takes
	// again count twice).
	Runs, Paths int
	Covered     []Branch
	Known       []PathKey
	// Searches counts the searches it continues.
	Searches int
	// Stored marks a Resume an earlier dowse run left (in the result
	// cache); Earlier is, for one of this run, the stored Resume the
	// chain of searches it continues began with (nil: none).
	Stored  bool
	Earlier *Resume
}

// ResumeFrom is where a search after rep continues from.
func ResumeFrom(rep *Report) *Resume {
	r := &Resume{
		Leaves: rep.Leaves, Inputs: resumeInputs(rep), MaxLen: rep.MaxLen,
		Runs: rep.Runs, Paths: rep.Paths, Covered: slices.Clone(rep.Covered),
		Searches: 1,
	}
	if p := rep.Resumed; p != nil {
		r.Known = p.Known[:min(len(p.Known), maxKnown):min(len(p.Known), maxKnown)]
	}
	r.Known = append(r.Known, rep.PathKeys[:min(len(rep.PathKeys), maxKnown-len(r.Known))]...)
	if p := rep.Resumed; p != nil {
		r.Searches += p.Searches
		r.Earlier = p.Earlier
		if p.Stored {
			r.Earlier = p
		}
	}
	return r
}

// ResumeAfter is where a later search continues after rep, the report
// of a search that was stopped: ResumeFrom(rep), or, when rep's search
// was stopped before it had run again the inputs it started from
// (Report.StartCut), the Resume it started from, whose work it had not
// yet found again (nil if it started from none).
func ResumeAfter(rep *Report) *Resume {
	if !rep.StartCut {
		return ResumeFrom(rep)
	}
	return rep.Resumed
}

// Canceled marks rep as the report of a search that the run's stop cut
// short, whatever bound it reported: its verdict cannot be exhaustive,
// and a later search continues it (ResumeAfter).
func (rep *Report) Canceled() {
	rep.Exhaustive = false
	if !slices.Contains(rep.Incomplete, ReasonCanceled) {
		rep.Incomplete = append(rep.Incomplete, ReasonCanceled)
		sort.SliceStable(rep.Incomplete, func(i, j int) bool {
			return slices.Index(reasonOrder, rep.Incomplete[i]) < slices.Index(reasonOrder, rep.Incomplete[j])
		})
	}
	rep.StopReason = ReasonCanceled
}

// EarlierRun is the Resume an earlier dowse run left that the searches
// of rep continue (nil: none).
func EarlierRun(rep *Report) *Resume {
	r := rep.Resumed
	switch {
	case r == nil:
		return nil
	case r.Stored:
		return r
	}
	return r.Earlier
}

// Limits of what a Resume keeps.
const (
	maxKnown   = 1 << 16 // paths
	maxPoolRun = 256     // inputs of the mutation pool, which a resumed search runs first
)

// resumeInputs are the inputs a search continuing rep's starts from:
// those a search with a raised bound would (nextInputs: its rows,
// failures and the solutions that need longer inputs), then the first
// maxPoolRun of its mutation pool, which found the rest of what it
// found. They all run before anything else, whatever the time bound.
func resumeInputs(rep *Report) [][]rt.Value {
	inputs := nextInputs(rep)
	added := 0
	for _, in := range rep.Pool {
		if added >= maxPoolRun {
			break
		}
		if !slices.ContainsFunc(inputs, func(o []rt.Value) bool { return slices.Equal(o, in) }) {
			inputs = append(inputs, in)
			added++
		}
	}
	return inputs
}

// Target is t starting from the inputs of r (they run after t's own
// seeds), with the paths r took known.
func (r *Resume) Target(t Target) Target {
	t.Inputs, t.From, t.Known, t.EarlierRuns = r.Inputs, r.Leaves, r.Known, r.Runs
	return t
}

// Into counts the work of r in rep, the report of the search that
// continued it (which did not count the paths r knew): its runs, paths
// and branch outcomes; and records r in rep.Resumed.
func (r *Resume) Into(rep *Report) {
	rep.Runs += r.Runs
	rep.Paths += r.Paths
	seen := map[Branch]bool{}
	for _, b := range rep.Covered {
		seen[b] = true
	}
	for _, b := range r.Covered {
		if !seen[b] {
			seen[b] = true
			rep.Covered = append(rep.Covered, b)
		}
	}
	sort.Slice(rep.Covered, func(i, j int) bool {
		a, b := rep.Covered[i], rep.Covered[j]
		if a.Site != b.Site {
			return a.Site < b.Site
		}
		return !a.Taken && b.Taken
	})
	rep.Resumed = r
}

// AddWork adds to rep, the report of a search that continued the one of
// prev in the same run (Resume.Into counted its runs and paths), the
// time and queries prev took.
func AddWork(rep, prev *Report) {
	rep.Elapsed += prev.Elapsed
	rep.SolverTime += prev.SolverTime
	rep.TargetTime += prev.TargetTime
	rep.Queries += prev.Queries
	rep.Sat += prev.Sat
	rep.Unsat += prev.Unsat
	rep.UnknownAnswers += prev.UnknownAnswers
	rep.CacheHits += prev.CacheHits
	rep.Divergences += prev.Divergences
	rep.MutantRuns += prev.MutantRuns
	rep.Concretizations += prev.Concretizations
}
