package output

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// TextHandler writes the summary a person reads: a line per package,
// with what needs the user's attention under it (files written, targets
// not explored, failing rows kept or dropped, changed results), then the
// findings of the run grouped by cause, one line each with where, the
// smallest input and how to reproduce it, and the totals. Verbose (-v)
// also writes each target's whole report (textdetail.go) as it comes.
type TextHandler struct {
	w       io.Writer
	verbose bool

	pkg      []*Target // the targets of the package being reported
	findings []string  // the lines of the findings section

	packages, targets, exhaustive, errors, skipped int
	bugs, inputs                                   int // findings not listed apart, and the failing inputs reaching them
}

// NewTextHandler returns a handler writing to w. Verbose writes every
// target's report in full.
func NewTextHandler(w io.Writer, verbose bool) *TextHandler {
	return &TextHandler{w: w, verbose: verbose}
}

// Limits of the text output.
const (
	textFailures = 3   // bugs of a target's report shown without -v
	textUnsolved = 1   // unsolved branches shown without -v
	textMessage  = 100 // the longest message of a finding's line
)

// PackageHandler is a Handler that is told when the results of a
// package are all in: the engine calls PackageDone after the last
// target of each package, with the package's time (build, exploration,
// files written, generated tests run).
type PackageHandler interface {
	Handler
	PackageDone(pkg string, elapsed time.Duration) error
}

// Target implements Handler.
func (h *TextHandler) Target(t *Target) error {
	if len(h.pkg) > 0 && h.pkg[0].Package != t.Package {
		if err := h.PackageDone(h.pkg[0].Package, 0); err != nil {
			return err
		}
	}
	h.pkg = append(h.pkg, t)
	if h.verbose {
		return h.detail(t)
	}
	return nil
}

// PackageDone implements PackageHandler: it writes the package's line
// (elapsed 0: the exploration time of its targets) and notes.
func (h *TextHandler) PackageDone(pkg string, elapsed time.Duration) error {
	if len(h.pkg) == 0 || h.pkg[0].Package != pkg {
		return nil
	}
	targets := h.pkg
	h.pkg = nil
	h.packages++
	var b strings.Builder
	var exhaustive, cached, errs, bugs, inputs, apart int
	var seconds float64
	var skipped []string
	for _, t := range targets {
		h.targets++
		seconds += t.ElapsedSeconds
		switch {
		case t.Error != "":
			errs++
			continue
		case t.Skipped != "":
			skipped = append(skipped, t.Target)
			continue
		}
		if t.Exhaustive {
			exhaustive++
		}
		if t.Cached {
			cached++
		}
		bugs += len(t.KeptFailures)
		inputs += len(t.KeptFailures)
		for _, fd := range findingsOfTarget(t) {
			if fd.Apart != "" {
				apart += fd.Inputs
				continue
			}
			bugs++
			inputs += fd.Inputs
			h.findings = append(h.findings, findingLine(t, fd))
		}
	}
	if elapsed > 0 {
		seconds = elapsed.Seconds()
	}
	h.exhaustive += exhaustive
	h.errors += errs
	h.skipped += len(skipped)
	h.bugs += bugs
	h.inputs += inputs

	fmt.Fprintf(&b, "%s: %s", pkg, plural(len(targets), "target"))
	if cached > 0 {
		fmt.Fprintf(&b, " (%d cached)", cached)
	}
	fmt.Fprintf(&b, ", %d exhaustive, %s", exhaustive, plural(bugs, "finding"))
	if bugs > 0 {
		fmt.Fprintf(&b, " (%s)", plural(inputs, "failing input"))
	}
	if apart > 0 {
		fmt.Fprintf(&b, ", %s listed apart", plural(apart, "failing input"))
		if !h.verbose {
			b.WriteString(" (-v lists them)")
		}
	}
	if errs > 0 {
		fmt.Fprintf(&b, ", %d not explored", errs)
	}
	fmt.Fprintf(&b, "; %s\n", packageTime(seconds))
	if !h.verbose {
		h.notes(&b, targets, skipped)
	}
	_, err := io.WriteString(h.w, b.String())
	return err
}

// notes writes under a package's line what needs the user's attention:
// the files written, the targets not explored or skipped, failing rows
// kept or dropped, changed or unstable results, internal errors, longer
// inputs that would reach more.
func (h *TextHandler) notes(b *strings.Builder, targets []*Target, skipped []string) {
	files := filesLine(targets)
	if files != "" {
		fmt.Fprintf(b, "  %s\n", files)
	}
	notExplored(b, targets)
	for _, t := range targets {
		name := t.Target
		if n := len(t.KeptFailures); n > 0 {
			fmt.Fprintf(b, "  %s: kept %s an earlier run found, not found again (%s): %s\n", name, plural(n, "failing row"), t.FailureTest, strings.Join(t.KeptFailures, ", "))
		}
		if n := len(t.DroppedFailures); n > 0 {
			fmt.Fprintf(b, "  %s: dropped %s an earlier run found: run again, they no longer fail: %s\n", name, plural(n, "failing row"), strings.Join(t.DroppedFailures, ", "))
		}
		if n := len(t.BehaviourChanged); n > 0 {
			fmt.Fprintf(b, "  %s: behaviour changed: %s (written with the new results; check them):\n", name, plural(n, "row"))
			for _, c := range t.BehaviourChanged {
				fmt.Fprintf(b, "    %s: %s → %s\n", c.Case, c.Old, c.New)
			}
		}
		if t.UnstableRows > 0 {
			fmt.Fprintf(b, "  %s: %s with other results when run again (not compared)\n", name, plural(t.UnstableRows, "row"))
		}
		if len(t.Errors) > 0 {
			fmt.Fprintf(b, "  %s: %s in dowse (-v lists them)\n", name, plural(len(t.Errors), "internal error"))
		}
		if n := len(t.BoundLimited); n > 0 && t.Bounds.MaxLen != nil {
			fmt.Fprintf(b, "  %s: inputs longer than %d reach %s (raise -max-len)\n", name, *t.Bounds.MaxLen, plural(n, "more branch"))
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(b, "  skipped %s dowse cannot build inputs for yet (-v says why): %s\n", plural(len(skipped), "target"), strings.Join(skipped, ", "))
	}
}

// textNames is the most target names a note lists.
const textNames = 8

// notExplored writes why targets were not explored: one note per
// reason, naming the targets it applies to.
func notExplored(b *strings.Builder, targets []*Target) {
	var reasons []string
	by := map[string][]string{}
	for _, t := range targets {
		if t.Error == "" {
			continue
		}
		if by[t.Error] == nil {
			reasons = append(reasons, t.Error)
		}
		by[t.Error] = append(by[t.Error], t.Target)
	}
	for _, r := range reasons {
		names := by[r]
		if len(names) == 1 {
			fmt.Fprintf(b, "  %s: not explored: %s\n", names[0], indent(r, "    "))
			continue
		}
		list := strings.Join(names[:min(len(names), textNames)], ", ")
		if len(names) > textNames {
			list += fmt.Sprintf(" and %d more", len(names)-textNames)
		}
		fmt.Fprintf(b, "  %d targets not explored (%s): %s\n", len(names), list, indent(r, "    "))
	}
}

// filesLine says which generated files the targets have: test files
// by name, corpus files counted.
func filesLine(targets []*Target) string {
	unchanged := map[string]bool{}
	seen := map[string]bool{}
	var wrote, kept []string
	corpusWrote, corpusKept := 0, 0
	for _, t := range targets {
		for _, f := range t.Unchanged {
			unchanged[f] = true
		}
		for _, f := range t.Files {
			if seen[f] {
				continue
			}
			seen[f] = true
			dir, name := path.Split(filepath.ToSlash(f))
			corpus := strings.HasPrefix(name, "dowse-") && strings.Contains(dir, "testdata/fuzz/")
			switch {
			case corpus && unchanged[f]:
				corpusKept++
			case corpus:
				corpusWrote++
			case unchanged[f]:
				kept = append(kept, f)
			default:
				wrote = append(wrote, f)
			}
		}
	}
	var parts []string
	if corpusWrote > 0 {
		wrote = append(wrote, plural(corpusWrote, "corpus file"))
	}
	if corpusKept > 0 {
		kept = append(kept, plural(corpusKept, "corpus file"))
	}
	if len(wrote) > 0 {
		parts = append(parts, "wrote "+strings.Join(wrote, ", "))
	}
	if len(kept) > 0 {
		parts = append(parts, "unchanged "+strings.Join(kept, ", "))
	}
	return strings.Join(parts, "; ")
}

// findingsOfTarget are t's findings (computed from its failures if the
// summary has none).
func findingsOfTarget(t *Target) []Finding {
	if t.Findings != nil {
		return t.Findings
	}
	return findingsOf(t.Failures)
}

// findingLine is the line of finding fd of target t: where, how it
// ended, the target and its smallest input, how to reproduce it.
func findingLine(t *Target, fd Finding) string {
	where := fd.PanicAt
	if where == "" {
		where = t.Position
	}
	msg := firstLine(fd.Message)
	if msg == "" {
		msg = "(no message)"
	}
	if r := []rune(msg); len(r) > textMessage {
		msg = string(r[:textMessage-1]) + "…"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  %s: %s: %s: %s; smallest input %s", where, t.Target, fd.Status, msg, shortInput(fd.Input))
	if fd.Inputs > 1 {
		fmt.Fprintf(&b, " (%s in all)", plural(fd.Inputs, "input"))
	}
	if test := reproducingTest(t, fd); test != "" {
		fmt.Fprintf(&b, "; reproduce: DOWSE_REPRODUCE=1 go test -run '^%s$' %s", test, packageDir(t))
	}
	return b.String()
}

// reproducingTest is the generated test that reproduces finding fd.
func reproducingTest(t *Target, fd Finding) string {
	for _, f := range t.Failures {
		if f.Test != "" && (f.Finding == fd.ID || f.Input == fd.Input) {
			return f.Test
		}
	}
	return ""
}

// packageDir is the directory of t's package for go test: ./dir from
// its position when relative, its import path otherwise.
func packageDir(t *Target) string {
	file, _, _ := strings.Cut(t.Position, ":")
	if file == "" || filepath.IsAbs(file) {
		return t.Package
	}
	dir := path.Dir(filepath.ToSlash(file))
	if dir == "." {
		return "."
	}
	return "./" + dir
}

// packageTime writes a package's time: tenths of seconds under a
// minute, as clock beyond.
func packageTime(s float64) string {
	if s < 59.95 {
		return fmt.Sprintf("%.1fs", s)
	}
	return clock(s)
}

// Flush implements Handler: it writes the findings and the totals.
func (h *TextHandler) Flush() error {
	if len(h.pkg) > 0 {
		if err := h.PackageDone(h.pkg[0].Package, 0); err != nil {
			return err
		}
	}
	if h.targets == 0 {
		_, err := fmt.Fprintln(h.w, "no targets")
		return err
	}
	var b strings.Builder
	if len(h.findings) > 0 {
		fmt.Fprintf(&b, "%s, by cause (where: target: ending: message; smallest input; how to reproduce):\n", plural(len(h.findings), "finding"))
		for _, l := range h.findings {
			b.WriteString(l + "\n")
		}
	}
	fmt.Fprintf(&b, "%s, %s: %d exhaustive, %s", plural(h.packages, "package"), plural(h.targets, "target"), h.exhaustive, plural(h.bugs, "finding"))
	if h.bugs > 0 {
		fmt.Fprintf(&b, " (%s)", plural(h.inputs, "failing input"))
	}
	if h.errors > 0 {
		fmt.Fprintf(&b, ", %d not explored", h.errors)
	}
	if h.skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped", h.skipped)
	}
	b.WriteString("\n")
	_, err := io.WriteString(h.w, b.String())
	return err
}
