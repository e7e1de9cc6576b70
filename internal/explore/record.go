package explore

import (
	"slices"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

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
	case res.Recursion != "":
		e.hit[ReasonRecursion] = true
		if res.RecursionDepth > e.rep.RecursionDepth {
			e.rep.Recursion, e.rep.RecursionDepth = res.Recursion, res.RecursionDepth
		}
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
