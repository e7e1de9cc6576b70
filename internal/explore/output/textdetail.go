package output

import (
	"fmt"
	"io"
	"path"
	"strings"
)

// detail writes the whole report of one target, as -v shows it.
func (h *TextHandler) detail(t *Target) error {
	var b strings.Builder
	cached := ""
	if t.Cached {
		cached = " (cached)"
	}
	fmt.Fprintf(&b, "%s %s (%s)%s\n", t.Package, t.Target, t.Position, cached)
	if t.Error != "" {
		fmt.Fprintf(&b, "  not explored: %s\n", indent(t.Error, "    "))
		_, err := io.WriteString(h.w, b.String())
		return err
	}
	if t.Skipped != "" {
		fmt.Fprintf(&b, "  skipped: %s\n", indent(t.Skipped, "    "))
		_, err := io.WriteString(h.w, b.String())
		return err
	}
	listedApart := 0
	for i := range t.Failures {
		if !t.Failures[i].IsFinding() {
			listedApart++
		}
	}
	fmt.Fprintf(&b, "  runs %d, paths %d, tests %d, failures %d", t.Runs, t.Paths, t.Tests, len(t.Failures))
	if listedApart > 0 {
		fmt.Fprintf(&b, " (%d listed apart, not findings)", listedApart)
	}
	b.WriteString("\n")
	if len(t.TypeConstraints) > 0 {
		met := 0
		for _, c := range t.TypeConstraints {
			if c.Met {
				met++
			}
		}
		var names []string
		for _, m := range t.MockTypes {
			names = append(names, m.Name)
		}
		fmt.Fprintf(&b, "  mock types %d, type constraints met %d of %d", len(t.MockTypes), met, len(t.TypeConstraints))
		if len(names) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(names, ", "))
		}
		b.WriteString("\n")
	}
	if t.Coverage.Sites > 0 {
		total := t.Coverage.Outcomes
		fmt.Fprintf(&b, "  branch outcomes covered: %d of %d (%.1f%%)\n", t.Coverage.Covered, total, 100*float64(t.Coverage.Covered)/float64(total))
	} else {
		fmt.Fprintf(&b, "  branch outcomes covered: %d\n", t.Coverage.Covered)
	}
	if t.Exhaustive {
		var bounds []string
		if t.Bounds.MaxLen != nil {
			bounds = append(bounds, fmt.Sprintf("strings and slices of at most %d elements", *t.Bounds.MaxLen))
			if t.Bounds.RaisedFrom != nil {
				bounds[len(bounds)-1] += fmt.Sprintf(", raised from -max-len %d", *t.Bounds.RaisedFrom)
			}
		}
		if t.Bounds.MockValues != nil {
			bounds = append(bounds, fmt.Sprintf("at most %d generated mock values per parameter", *t.Bounds.MockValues))
		}
		if t.Bounds.MaxAlloc != nil {
			bounds = append(bounds, fmt.Sprintf("make lengths of at most %d", *t.Bounds.MaxAlloc))
		}
		domain := ""
		if len(bounds) > 0 {
			domain = " (" + strings.Join(bounds, ", ") + ")"
		}
		fmt.Fprintf(&b, "  exhaustive: %s%s\n", t.StopReason, domain)
	} else {
		fmt.Fprintf(&b, "  stopped: %s; not exhaustive: %s\n", t.StopReason, strings.Join(t.Incomplete, ", "))
	}
	if r := t.Recursion; r != nil {
		fmt.Fprintf(&b, "  recursion-depth: %s was %d calls deep when -max-branches stopped runs: inputs drive the recursion without end (or deeper than the bound); bound the depth in the code or raise -max-branches\n", r.Func, r.Depth)
	}
	var extra []string
	if r := t.Resumed; r != nil {
		extra = append(extra, fmt.Sprintf("resumed where an earlier run (its budget or a signal) stopped it (%s, %s; %s to start from)", plural(r.Runs, "run"), plural(r.Paths, "path"), plural(r.Inputs, "input")))
	}
	if b := t.Budget; b != nil && b.Passes > 1 {
		extra = append(extra, fmt.Sprintf("explored in %d passes: a first share of %.1fs, then time other targets left", b.Passes, b.ShareSeconds))
	}
	if t.MutationRuns > 0 {
		extra = append(extra, fmt.Sprintf("%s of mutated inputs found %s", plural(t.MutationRuns, "run"), plural(t.MutationPaths, "path")))
	}
	if t.LengthFreeRuns > 0 {
		extra = append(extra, fmt.Sprintf("%s solved without pinned lengths found %s", plural(t.LengthFreeRuns, "run"), plural(t.LengthFreePaths, "path")))
	}
	if g := t.GoFuzz; g != nil {
		s := fmt.Sprintf("go test -fuzz for %.1fs from %s found %s, %s", g.Seconds, plural(g.Seeds, "input"), plural(g.Inputs, "input"), plural(g.Paths, "new path"))
		if g.Error != "" {
			s += " (stopped: " + firstLine(g.Error) + ")"
		}
		extra = append(extra, s)
	}
	if t.BuildCrashes > 0 {
		extra = append(extra, fmt.Sprintf("%s ended the worker while building the input (rejected, not failures)", plural(t.BuildCrashes, "run")))
	}
	if t.ResourceBounded > 0 {
		extra = append(extra, fmt.Sprintf("%s ended the worker on a resource bound (not failures)", plural(t.ResourceBounded, "run")))
	}
	if t.Divergences > 0 {
		extra = append(extra, fmt.Sprintf("%s (at %s)", plural(t.Divergences, "divergence"), strings.Join(t.DivergenceSites, ", ")))
	}
	if t.Concretizations > 0 {
		extra = append(extra, plural(t.Concretizations, "concretized value"))
	}
	if t.UnstableRows > 0 {
		extra = append(extra, plural(t.UnstableRows, "row")+" with other results when run again (not compared)")
	}
	if len(extra) > 0 {
		fmt.Fprintf(&b, "  %s\n", strings.Join(extra, ", "))
	}
	for _, at := range t.ConcretizedAt {
		fmt.Fprintf(&b, "    concretized at %s\n", at)
	}
	share := 0.0
	if t.ElapsedSeconds > 0 {
		share = 100 * t.SolverSeconds / t.ElapsedSeconds
	}
	fmt.Fprintf(&b, "  time %.2fs, solver %.2fs (%.0f%%), %d queries, %d cache hits\n",
		t.ElapsedSeconds, t.SolverSeconds, share, t.SolverQueries, t.CacheHits)
	if iso := t.Isolation; iso != nil {
		calls := ""
		if len(iso.Calls) > 0 {
			calls = " (" + strings.Join(iso.Calls, ", ") + ")"
		}
		fmt.Fprintf(&b, "  isolation: %d of %d externals isolated%s, %s, %s read; %s in the isolated file; analysis %.2fs, build %.2fs\n",
			iso.Isolated, iso.Externals, calls, plural(iso.Sites, "call site"), plural(iso.Members, "external variable"), plural(iso.Rows, "row"), iso.AnalysisSeconds, iso.BuildSeconds)
	}
	findings := t.Findings
	if findings == nil {
		findings = findingsOf(t.Failures)
	}
	// first[i] is the first failure of findings[i], more[i] its other
	// listed failures.
	first := make([]*Failure, len(findings))
	more := make([][]*Failure, len(findings))
	for i := range t.Failures {
		f := &t.Failures[i]
		for j := range findings {
			if f.Finding == findings[j].ID || f.Finding == 0 && first[j] == nil && findings[j].Input == f.Input && findings[j].Message == f.Message {
				if first[j] == nil {
					first[j] = f
				} else {
					more[j] = append(more[j], f)
				}
				break
			}
		}
	}
	if n := len(t.BehaviourChanged); n > 0 {
		fmt.Fprintf(&b, "  behaviour changed: %s (written with the new results; check them):\n", plural(n, "row"))
		for _, c := range t.BehaviourChanged {
			fmt.Fprintf(&b, "    %s: %s → %s\n", c.Case, c.Old, c.New)
		}
	}
	if n := len(t.KeptFailures); n > 0 {
		fmt.Fprintf(&b, "  kept %s an earlier run found, not found again (%s): %s\n", plural(n, "failing row"), t.FailureTest, strings.Join(t.KeptFailures, ", "))
	}
	if n := len(t.DroppedFailures); n > 0 {
		fmt.Fprintf(&b, "  dropped %s an earlier run found: run again, they no longer fail: %s\n", plural(n, "failing row"), strings.Join(t.DroppedFailures, ", "))
	}
	bugs := 0
	for _, fd := range findings {
		if fd.Apart == "" {
			bugs++
		}
	}
	apart := apartLists(findings)
	if t.FailuresOmitted > 0 {
		fmt.Fprintf(&b, "  %s not kept (the first %d, of every cause first, are)\n", plural(t.FailuresOmitted, "more failing path"), len(t.Failures))
	}
	shown := 0
	for i, fd := range findings {
		if fd.Apart != "" {
			continue
		}
		if shown == textFailures && !h.verbose {
			fmt.Fprintf(&b, "  ... and %s (-v lists them)\n", plural(bugs-shown, "more bug"))
			break
		}
		shown++
		msg := fd.Message
		if msg == "" {
			msg = "(no message)"
		}
		at := ""
		if fd.PanicAt != "" {
			at = " at " + fd.PanicAt
		}
		fmt.Fprintf(&b, "  bug: %s%s, %s\n", fd.Status, at, indent(msg, "    "))
		fmt.Fprintf(&b, "    smallest input: %s\n", shortInput(fd.Input))
		if fd.Inputs > 1 {
			fmt.Fprintf(&b, "    %s reach it\n", plural(fd.Inputs-1, "more input"))
		}
		f := first[i]
		if f == nil {
			continue
		}
		if h.verbose {
			for _, o := range more[i] {
				fmt.Fprintf(&b, "    also: %s\n", shortInput(o.Input))
			}
		}
		if f.PathCondition != "" && h.verbose {
			fmt.Fprintf(&b, "    path: %s\n", f.PathCondition)
		}
		if f.Output != "" && h.verbose {
			fmt.Fprintf(&b, "    output:\n      %s\n", indent(strings.TrimRight(f.Output, "\n"), "      "))
		}
		if f.Test != "" {
			fmt.Fprintf(&b, "    test: %s\n", f.Test)
		}
	}
	for _, a := range apartOrder {
		if l := apart[a.why]; len(l) > 0 {
			fmt.Fprintf(&b, "  %s\n", strings.TrimSuffix(a.label, " "))
			for _, line := range l {
				fmt.Fprintf(&b, "    %s\n", line)
			}
		}
	}
	if n := len(t.BoundLimited); n > 0 {
		l := t.BoundLimited[0]
		bound := ""
		if t.Bounds.MaxLen != nil {
			bound = fmt.Sprintf(" %d", *t.Bounds.MaxLen)
		}
		more := "1 more branch"
		if n > 1 {
			more = fmt.Sprintf("%d more branches", n)
		}
		fmt.Fprintf(&b, "  bounded: inputs longer than -max-len%s reach %s, e.g. %s to %v with %s (raise -max-len)\n",
			bound, more, l.Site, l.Taken, strings.Join(l.Lengths, ", "))
		if h.verbose {
			for _, l := range t.BoundLimited[1:] {
				fmt.Fprintf(&b, "    branch at %s to %v with %s\n", l.Site, l.Taken, strings.Join(l.Lengths, ", "))
			}
		}
	}
	for i, u := range t.Unsolved {
		if i == textUnsolved && !h.verbose {
			fmt.Fprintf(&b, "  ... and %d more unsolved branches (-v lists them)\n", len(t.Unsolved)-i)
			break
		}
		fmt.Fprintf(&b, "  unsolved: branch at %s to %v (%s)\n    path: %s\n", u.Site, u.Taken, u.Reason, h.cut(u.PathCondition))
	}
	for _, e := range t.Errors {
		fmt.Fprintf(&b, "  internal error: %s\n", e)
	}
	// Test files one a line; corpus files (many, one per path) counted per
	// directory unless verbose.
	// Files that already had the generated content are "unchanged".
	unchanged := map[string]bool{}
	for _, f := range t.Unchanged {
		unchanged[f] = true
	}
	verb := func(f string) string {
		if unchanged[f] {
			return "unchanged"
		}
		return "wrote"
	}
	type corpusDir struct{ wrote, unchanged int }
	corpus := map[string]*corpusDir{}
	var dirs []string
	for _, f := range t.Files {
		dir, name := path.Split(f)
		if !h.verbose && strings.HasPrefix(name, "dowse-") && strings.Contains(dir, "testdata/fuzz/") {
			c := corpus[dir]
			if c == nil {
				c = &corpusDir{}
				corpus[dir] = c
				dirs = append(dirs, dir)
			}
			if unchanged[f] {
				c.unchanged++
			} else {
				c.wrote++
			}
			continue
		}
		fmt.Fprintf(&b, "  %s %s\n", verb(f), f)
	}
	for _, d := range dirs {
		c, name := corpus[d], strings.TrimSuffix(d, "/")
		switch {
		case c.unchanged == 0:
			fmt.Fprintf(&b, "  wrote %s in %s\n", plural(c.wrote, "corpus file"), name)
		case c.wrote == 0:
			fmt.Fprintf(&b, "  unchanged %s in %s\n", plural(c.unchanged, "corpus file"), name)
		default:
			fmt.Fprintf(&b, "  wrote %s in %s (%d more unchanged)\n", plural(c.wrote, "corpus file"), name, c.unchanged)
		}
	}
	_, err := io.WriteString(h.w, b.String())
	return err
}

// apartLists are the lines of the failures listed apart, by why: one
// per message (a nil dereference: per position), with the number of
// causes and inputs behind it and the smallest input, each once.
func apartLists(findings []Finding) map[string][]string {
	type group struct {
		key, input string
		inputs     int
	}
	var order []*group
	groups := map[[2]string]*group{}
	for _, fd := range findings {
		if fd.Apart == "" {
			continue
		}
		key := fmt.Sprintf("%q", firstLine(fd.Message))
		if fd.Apart == ApartNilInput || fd.Apart == ApartInvalid {
			key = "at " + fd.PanicAt
		} else if fd.PanicAt != "" {
			key += " at " + fd.PanicAt
		}
		g := groups[[2]string{fd.Apart, key}]
		if g == nil {
			g = &group{key: fd.Apart + "\x00" + key, input: fd.Input}
			groups[[2]string{fd.Apart, key}] = g
			order = append(order, g)
		}
		g.inputs += fd.Inputs
		if len(fd.Input) < len(g.input) {
			g.input = fd.Input
		}
	}
	lists := map[string][]string{}
	for _, g := range order {
		why, key, _ := strings.Cut(g.key, "\x00")
		lists[why] = append(lists[why], fmt.Sprintf("%s (%s), e.g. %s", key, plural(g.inputs, "input"), shortInput(g.input)))
	}
	return lists
}

// apartOrder is the order and the wording of the lists of failures
// listed apart from the findings.
var apartOrder = []struct{ why, label string }{
	{ApartNilInput, "nil inputs, not findings: a nil pointer dereference on a nil parameter or receiver"},
	{ApartInvalid, "invalid receivers, not findings (built from a zero value the package never makes): a nil pointer dereference"},
	{ApartDeliberate, "deliberate panics, not findings (documented, or raised by the code's own checks):"},
	{ApartPrecondition, "preconditions, not findings (a type the function asserts its parameter to, first thing; a sort.Interface index past Len()):"},
	{ApartEarlierState, "not findings, depend on state left by earlier runs (did not fail so alone, in a fresh worker):"},
}

// textCondition is the longest path condition the non-verbose text output
// shows.
const textCondition = 240

// cut shortens a path condition unless the output is verbose, keeping its
// end, which holds the branches closest to the failure.
func (h *TextHandler) cut(cond string) string {
	if h.verbose || len(cond) <= textCondition {
		return cond
	}
	tail := cond[len(cond)-textCondition:]
	if i := strings.Index(tail, " && "); i >= 0 {
		tail = tail[i+len(" && "):]
	}
	return "… && " + tail
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	if strings.HasSuffix(word, "ch") || strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func indent(s, prefix string) string {
	return strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
