package main

import (
	"strings"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/explore/output"
)

// A run whose targets are still finding new paths when the budget runs
// out ends within its budget, writing and confirming its rows included:
// the package keeps time for them at the end of its allotment. (The
// exploration used to run to the budget's end, and the run overran it
// by the build and run of the package's tests: 17 s of one minute here,
// on a loaded machine.)
func TestSweepRunEndsWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	const budget = time.Minute
	began := time.Now()
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "budgetend"), "-json", "-cache=false", "-budget", budget.String(), ".")
	took := time.Since(began)
	if code != exitOK {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	cut := 0
	for name, s := range targetResults[output.Target](t, stdout) {
		if s.StopReason == "budget" {
			cut++
		}
		if len(s.Files) == 0 || s.Tests == 0 {
			t.Errorf("%s: no rows written", name)
		}
	}
	if cut == 0 {
		t.Fatalf("no target was stopped by the budget: the fixture's paths must outlast it\n%s", stdout)
	}
	if took > budget {
		t.Errorf("the run took %v, more than its budget of %v", took.Round(time.Millisecond), budget)
	}
	generatedTestsPass(t, dir)
}

// The Less and Swap methods of a sort.Interface are called with indices
// below Len(), as the interface's contract says: an index out of range
// where they index with their parameters is listed apart as a
// precondition, not a finding, while an index panic of other code (Top
// given n < 0) stays one.
func TestSweepSortIndexPrecondition(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, got, out := runHostile(t, "sortindex", "-max-time", "10s")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (Top's finding)\n%s", code, exitFindings, out)
	}
	for _, name := range []string{"ByScore.Less", "ByScore.Swap"} {
		fs := got[name]
		if len(fs) == 0 {
			t.Errorf("%s: no failure; want its index out of range listed apart\n%s", name, out)
		}
		for _, f := range fs {
			if !strings.Contains(f.Message, "index out of range") || !f.Precondition || f.Apart != "precondition" {
				t.Errorf("%s: failure %+v; want an index out of range marked precondition, apart \"precondition\"", name, f)
			}
		}
	}
	top := got["Top"]
	if len(top) == 0 {
		t.Fatalf("Top: no failure; want its slice bounds out of range for n < 0\n%s", out)
	}
	for _, f := range top {
		if f.Precondition || f.Apart != "" {
			t.Errorf("Top: failure %+v listed apart; want a finding", f)
		}
	}
	generatedTestsPass(t, lastDir)
}
