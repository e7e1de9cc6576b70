package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/cache"
)

// A run stopped by SIGINT keeps its work in the result cache: the next
// run answers the target that had finished from the cache and continues
// the one the signal cut short from where it was, counting the work of
// both runs, instead of starting over.
func TestResumeAfterInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dowse and explores a module")
	}
	bin := filepath.Join(t.TempDir(), "dowse")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	for name, content := range readTree(t, filepath.Join("..", "..", "testdata", "resume", "interrupt")) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), cache.EnvDir+"="+t.TempDir())

	// The first run, with the default budget, is stopped a few seconds
	// into Count, whose paths never run out; Label has finished by then.
	cmd := exec.Command(bin, "gen", "-v", "-json", ".")
	cmd.Dir, cmd.Env = dir, env
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log, err := interruptAt(t, cmd, stderr, "exploring Count")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v, want status %d\n%s", err, exitInterrupted, strings.Join(log, "\n"))
	}
	first := budgetSummaries(t, stdout.String())
	label, count := first["Label"], first["Count"]
	if label == nil || count == nil {
		t.Fatalf("want the summaries of Label and Count:\n%s", stdout.String())
	}
	if label.StopReason == "canceled" || label.Error != "" {
		t.Fatalf("Label: stop reason %q, error %q; want it finished before the signal", label.StopReason, label.Error)
	}
	if count.StopReason != "canceled" || count.Exhaustive || !slices.Contains(count.Incomplete, "canceled") || count.Runs == 0 {
		t.Fatalf("Count: stop reason %q, exhaustive %v, incomplete %v, %d runs; want cut short by the signal after some runs",
			count.StopReason, count.Exhaustive, count.Incomplete, count.Runs)
	}
	// What the stopped run wrote compiles and passes.
	generatedTestsPass(t, dir)

	// The next run (the budget is not in the cache's key) continues.
	cmd = exec.Command(bin, "gen", "-json", "-budget", "30s", ".")
	cmd.Dir, cmd.Env = dir, env
	var out2, err2 bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out2, &err2
	if err := cmd.Run(); err != nil {
		t.Fatalf("second run: %v\nstdout:\n%s\nstderr:\n%s", err, out2.String(), err2.String())
	}
	second := budgetSummaries(t, out2.String())
	if s := second["Label"]; s == nil || !s.Cached {
		t.Errorf("second run: Label not answered from the cache:\n%s", out2.String())
	}
	s := second["Count"]
	if s == nil || s.Cached || s.Resumed == nil {
		t.Fatalf("second run: Count not resumed:\n%s", out2.String())
	}
	if r := s.Resumed; r.Runs != count.Runs || r.Paths != count.Paths || r.Inputs == 0 {
		t.Errorf("second run resumed %+v; want the first's %d runs and %d paths, and its inputs", r, count.Runs, count.Paths)
	}
	if s.Runs <= count.Runs || s.Paths < count.Paths {
		t.Errorf("second run: %d runs, %d paths; want the first's %d runs and %d paths and more runs", s.Runs, s.Paths, count.Runs, count.Paths)
	}
}

// The HTML report of a run without findings renders and passes the
// browser checks, and an empty slice a row returned is written as an
// empty literal, not as the length -1 the runtime reports it with.
func TestReportWithoutFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	exe := browser(t)
	page, stream, _ := reportFixture(t, "nofindings", "-max-len", "4", "-max-time", "10s")
	targets := streamTargets(t, stream)
	want := countsOf(targets)
	if want.Findings != 0 || want.Rows == 0 {
		t.Fatalf("the fixture should have rows and no findings: %+v", want)
	}
	empty := false
	for _, tg := range targets {
		for _, r := range tg.Rows {
			if strings.Contains(r.Result, "=-1") {
				t.Errorf("row %d returned %s: a length of -1", r.Run, r.Result)
			}
			empty = empty || strings.Contains(r.Result, "=[]{}")
		}
	}
	if !empty || !strings.Contains(page, "[]{}") {
		t.Errorf("no row shows the empty slice Split returns for no words")
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(page), 0o666); err != nil {
		t.Fatal(err)
	}
	if got, _ := inBrowser(t, exe, "file://"+file, targets, ""); got != want {
		t.Errorf("the page shows %+v, the stream says %+v", got, want)
	}
}
