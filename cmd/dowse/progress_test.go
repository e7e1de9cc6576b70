package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/explore/output"
)

// progressFixture is a package with two PUTs, one of which fails.
func progressFixture(t *testing.T) map[string]string {
	t.Helper()
	return readTree(t, filepath.Join("..", "..", "testdata", "progress", "twotargets"))
}

// With -json -progress, progress events come in the stream before each
// target's result, every line one object, and the last event of each
// target (its exploration ended) has the counts of its result.
func TestProgressJSONEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, progressFixture(t), "-json", "-progress", "-cache=false", "-max-runs", "100", "-max-time", "10s", "./...")
	if code != exitFindings && code != exitOK { // a loaded machine may not find the failure in time
		t.Fatalf("exit code %d, want %d or %d\n%s\n%s", code, exitFindings, exitOK, stdout, stderr)
	}
	type line struct {
		Progress *output.Progress `json:"progress"`
		output.Target
	}
	last := map[string]output.Progress{} // the last event of each target
	var phases []string
	results := 0
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var got line
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if p := got.Progress; p != nil {
			if got.Target.Target != "" {
				t.Errorf("a progress event with a result's fields: %s", l)
			}
			phases = append(phases, p.Phase)
			if p.Targets != 2 && p.Phase != output.PhaseLoad {
				t.Errorf("targets %d, want 2: %s", p.Targets, l)
			}
			if p.Target != "" {
				last[p.Target] = *p
			}
			continue
		}
		results++
		ev, ok := last[got.Target.Target]
		if !ok {
			t.Fatalf("%s: its result came before any progress event of it\n%s", got.Target.Target, stdout)
		}
		r := &got.Target
		if ev.Phase != output.PhaseExplored || ev.Runs != r.Runs || ev.Paths != r.Paths || ev.Failures != len(r.Failures) ||
			ev.Covered != r.Coverage.Covered || ev.Outcomes != r.Coverage.Outcomes {
			t.Errorf("%s: last event %+v, result runs %d paths %d failures %d covered %d of %d",
				r.Target, ev, r.Runs, r.Paths, len(r.Failures), r.Coverage.Covered, r.Coverage.Outcomes)
		}
	}
	if results != 2 {
		t.Errorf("%d results, want 2\n%s", results, stdout)
	}
	want := []string{output.PhaseLoad, output.PhaseBuild, output.PhaseExplore, output.PhaseExplored, output.PhaseExplore, output.PhaseExplored, output.PhaseWrite}
	var steps []string // phases without the repeated explore events
	for _, p := range phases {
		if len(steps) == 0 || steps[len(steps)-1] != p {
			steps = append(steps, p)
		}
	}
	if strings.Join(steps, " ") != strings.Join(want, " ") {
		t.Errorf("phases %v, want %v", steps, want)
	}
}

// Without -progress, -json stays one object per target, and the status
// lines are on standard error.
func TestProgressJSONOff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	_, stdout, stderr, _ := runGenIn(t, progressFixture(t), "-json", "-cache=false", "-max-runs", "1", "-run", "PutParse", "./...")
	if strings.Contains(stdout, `"progress"`) || len(summaryList(stdout)) != 1 {
		t.Errorf("progress events without -progress, or not one result:\n%s\n%s", stdout, stderr)
	}
	// The person running dowse still sees where it is.
	if want := "1/1 targets: example.com/twotargets PutParse done: "; !strings.Contains(stderr, want) {
		t.Errorf("-json: standard error has no status line %q:\n%s", want, stderr)
	}
}

// Off a terminal (standard error is not one here) the text mode writes
// plain status lines on standard error, one when each target's
// exploration ends, and none on standard output; -progress=false
// writes none.
func TestProgressPlainLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, progressFixture(t), "-cache=false", "-max-runs", "100", "-max-time", "10s", "./...")
	if code != exitFindings && code != exitOK {
		t.Fatalf("exit code %d, want %d or %d\n%s\n%s", code, exitFindings, exitOK, stdout, stderr)
	}
	if strings.ContainsAny(stderr, "\r\x1b") || strings.Contains(stdout, "dowse: ") {
		t.Errorf("terminal sequences on standard error, or status lines on standard output:\n%q\n%s", stderr, stdout)
	}
	for _, want := range []string{"1/2 targets: example.com/twotargets PutParse done: ", "2/2 targets: example.com/twotargets PutWeight done: "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("standard error has no line with %q:\n%s", want, stderr)
		}
	}
	_, _, stderr, _ = runGenIn(t, progressFixture(t), "-progress=false", "-cache=false", "-max-runs", "1", "./...")
	if strings.Contains(stderr, "targets: ") {
		t.Errorf("-progress=false: status lines on standard error:\n%s", stderr)
	}
}

// An error that ends the run is an {"error": ...} object in the -json
// stream of gen and of detect alike, besides the message on standard
// error.
func TestJSONStreamErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	broken := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":    "module example.com/broken\n\ngo 1.22\n",
		"b.go":      "package b\n\nfunc F() int { return \"x\" }\n",
		"b_test.go": "package b\n\nimport \"testing\"\n\nfunc PutF(t *testing.T, x int) { F() }\n",
	} {
		if err := os.WriteFile(filepath.Join(broken, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name string
		run  func(stdout, stderr *bytes.Buffer) int
		want string
	}{
		{"gen missing dir", func(o, e *bytes.Buffer) int {
			return genMain(context.Background(), []string{"-json", "-C", missing, "./..."}, o, e)
		}, "the directory does not exist"},
		{"detect missing dir", func(o, e *bytes.Buffer) int { return detectMain([]string{"-json", "-C", missing, "./..."}, o, e) }, "the directory does not exist"},
		{"gen compile error", func(o, e *bytes.Buffer) int {
			return genMain(context.Background(), []string{"-json", "-C", broken, "./..."}, o, e)
		}, "the packages do not compile"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.name == "gen compile error" {
				t.Skip("runs the go command")
			}
			var stdout, stderr bytes.Buffer
			if code := tt.run(&stdout, &stderr); code != exitError {
				t.Errorf("exit status %d, want %d", code, exitError)
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			var got struct {
				Error string `json:"error"`
			}
			if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &got) != nil || !strings.Contains(got.Error, tt.want) {
				t.Errorf("standard output is not one {\"error\": ...} object saying %q:\n%s", tt.want, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("standard error does not say %q:\n%s", tt.want, stderr.String())
			}
		})
	}
}
