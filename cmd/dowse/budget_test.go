package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/cache"
	"github.com/dowse-go/dowse/internal/explore/output"
)

// budgetFixture is the module of testdata/budget/<name>.
func budgetFixture(t *testing.T, name string) map[string]string {
	t.Helper()
	files := readTree(t, filepath.Join("..", "..", "testdata", "budget", name))
	for name, content := range files {
		if base, ok := strings.CutSuffix(name, ".go.txt"); ok {
			delete(files, name)
			files[base+".go"] = content
		}
	}
	return files
}

// budgetSummaries decodes the JSON summaries of a run, by target.
func budgetSummaries(t *testing.T, stdout string) map[string]*output.Target {
	t.Helper()
	sums := map[string]*output.Target{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var s output.Target
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		sums[s.Target] = &s
	}
	return sums
}

// Under a whole-run budget, a target that stops finding new behaviour
// ends early (a plateau) and leaves its time to one still finding it,
// which is explored again from where its first share stopped it and is
// reported as stopped by the budget, never as exhaustive.
func TestBudgetShares(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, _ := runGenIn(t, budgetFixture(t, "sched"), "-json", "-cache=false", "-budget", "60s", ".")
	if code != exitOK {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	sums := budgetSummaries(t, stdout)
	count, label := sums["Count"], sums["Label"]
	if count == nil || label == nil {
		t.Fatalf("want the summaries of Count and Label:\n%s", stdout)
	}
	// Count's paths never run out: the budget stops it, after a second
	// pass with the time Label left.
	if count.StopReason != "budget" || count.Exhaustive || !slices.Contains(count.Incomplete, "budget") {
		t.Errorf("Count: stop reason %q, exhaustive %v, incomplete %v; want stopped by the budget", count.StopReason, count.Exhaustive, count.Incomplete)
	}
	if count.Budget == nil || count.Budget.Passes < 2 {
		t.Errorf("Count: budget %+v; want a second pass with the time Label left", count.Budget)
	}
	// Label's behaviour is all found in moments: it ends at a plateau,
	// in its first share.
	if label.StopReason == "budget" || slices.Contains(label.Incomplete, "budget") {
		t.Errorf("Label: stop reason %q, incomplete %v; want it to end before its share", label.StopReason, label.Incomplete)
	}
	if label.Budget == nil || label.Budget.Passes != 1 {
		t.Errorf("Label: budget %+v; want one pass", label.Budget)
	}
	if label.Runs == 0 || count.Runs <= label.Runs {
		t.Errorf("Count made %d runs, Label %d: want the target still finding to get more", count.Runs, label.Runs)
	}
}

// A target the budget cut short is not replayed from the result cache:
// the next run continues it from the inputs it stored, counting the work
// of both, and finds paths the first did not.
func TestBudgetResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	t.Setenv(cache.EnvDir, t.TempDir())
	dir := t.TempDir()
	for name, content := range budgetFixture(t, "sched") {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	gen := func() *output.Target {
		t.Helper()
		var out, errb bytes.Buffer
		code := genMain(context.Background(), []string{"-C", dir, "-json", "-budget", "10s", "-run", "^Count$", "."}, &out, &errb)
		if code != exitOK {
			t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
		}
		s := budgetSummaries(t, out.String())["Count"]
		if s == nil {
			t.Fatalf("no summary of Count:\n%s", out.String())
		}
		return s
	}
	first := gen()
	if first.StopReason != "budget" || first.Resumed != nil || first.Cached {
		t.Fatalf("first run: stop reason %q, resumed %+v, cached %v; want stopped by the budget, from the start", first.StopReason, first.Resumed, first.Cached)
	}
	second := gen()
	if second.Cached || second.Resumed == nil {
		t.Fatalf("second run: cached %v, resumed %+v; want it to continue the first", second.Cached, second.Resumed)
	}
	if r := second.Resumed; r.Runs != first.Runs || r.Paths != first.Paths || r.Inputs == 0 {
		t.Errorf("second run resumed %+v; want the first's %d runs and %d paths, and its inputs", r, first.Runs, first.Paths)
	}
	if second.Runs <= first.Runs || second.Paths <= first.Paths {
		t.Errorf("second run: %d runs, %d paths; want more than the first's %d and %d", second.Runs, second.Paths, first.Runs, first.Paths)
	}
}

// A recursion as deep as its input says is bounded by the run's budget:
// the search, which finds a path per depth, stops at its share or at a
// plateau, never called exhaustive.
func TestBudgetRecursion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, _ := runGenIn(t, budgetFixture(t, "recursion"), "-json", "-cache=false", "-budget", "20s", ".")
	if code != exitOK {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	down := budgetSummaries(t, stdout)["Down"]
	if down == nil {
		t.Fatalf("no summary of Down:\n%s", stdout)
	}
	if down.Exhaustive || down.StopReason != "budget" && down.StopReason != "plateau" {
		t.Errorf("Down: stop reason %q, exhaustive %v, incomplete %v; want the budget or a plateau", down.StopReason, down.Exhaustive, down.Incomplete)
	}
}
