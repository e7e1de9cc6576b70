package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hostileFixture returns the files of the module testdata/hostile/<name>.
func hostileFixture(t *testing.T, name string) map[string]string {
	t.Helper()
	return readTree(t, filepath.Join("..", "..", "testdata", "hostile", name))
}

// failuresReproduce runs the generated failure tables of the module in
// dir with DOWSE_REPRODUCE=1 and fails the test unless each of want (test
// names) fails there.
func failuresReproduce(t *testing.T, dir string, want ...string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-run", "Failures$", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DOWSE_REPRODUCE=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the failure tables pass with DOWSE_REPRODUCE=1:\n%s", out)
	}
	for _, name := range want {
		if !strings.Contains(string(out), "--- FAIL: "+name+" ") {
			t.Errorf("%s does not fail with DOWSE_REPRODUCE=1:\n%s", name, out)
		}
	}
}

// TestHostileVerdictLoopVar explores code whose loops share their
// variables between iterations, as Go 1.21 and older do (a go.mod
// declaring go 1.21; a file with //go:build go1.21 in a go 1.23 module):
// closures created in a range loop all see the last element, so the PUTs
// fail when their two inputs differ. The worker must run the code with
// those semantics (the work go.mod once said go 1.22: one path,
// "exhaustive", no failure), and the solver must see what the closures
// return (PutSumIs20 fails only for b == 10).
func TestHostileVerdictLoopVar(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	for _, tt := range []struct {
		fixture string
		targets []string
	}{
		{"loopvar121", []string{"PutSum", "PutTotal", "PutSumIs20"}},
		{"loopvarfile", []string{"PutSum"}},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			code, stdout, stderr, dir := runGenIn(t, hostileFixture(t, tt.fixture), "-json", "-run", "^Put", "-max-time", "20s", ".")
			if code != 3 {
				t.Fatalf("exit code %d, want 3 (failures found)\n%s\n%s", code, stdout, stderr)
			}
			got := summaries(t, stdout)
			var tables []string
			for _, target := range tt.targets {
				if len(got[target].Failures) == 0 {
					t.Errorf("%s: no failure found: %+v", target, got[target])
				}
				tables = append(tables, "TestDowse"+target+"Failures")
			}
			generatedTestsPass(t, dir)
			failuresReproduce(t, dir, tables...)
		})
	}
}

// TestHostileVerdictLongConstant explores code that compares its input
// with a constant longer than the bound the search starts with (44 bytes:
// whole strings, a prefix, byte slices; a length of 50). The bound check
// once searched lengths up to 42 only (4 times -max-len 10, at least 32
// more), so these targets were called exhaustive for the bound of 10 with
// no branch listed and the bound not raised. With an explicit -max-len
// each branch is listed with the length it needs; by default the bound is
// raised and the failure found.
func TestHostileVerdictLongConstant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	targets := []string{"PutSecret", "PutFifty", "PutPrefix", "PutBytes"}
	files := hostileFixture(t, "longconst")
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "-max-len", "10", "-max-time", "20s", ".")
	if code != 0 {
		t.Fatalf("-max-len 10: exit code %d, want 0 (nothing within the bound)\n%s\n%s", code, stdout, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var s struct {
			Target       string `json:"target"`
			BoundLimited []struct {
				Lengths []string `json:"lengths"`
			} `json:"bound_limited"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%v\n%s", err, line)
		}
		if len(s.BoundLimited) == 0 {
			t.Errorf("-max-len 10: %s lists no branch that longer inputs reach:\n%s", s.Target, line)
		}
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-time", "20s", ".")
	if code != 3 {
		t.Fatalf("default bound: exit code %d, want 3 (failures found)\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	var tables []string
	for _, target := range targets {
		if len(got[target].Failures) == 0 {
			t.Errorf("%s: no failure found with the bound raised: %+v", target, got[target])
		}
		tables = append(tables, "TestDowse"+target+"Failures")
	}
	failuresReproduce(t, dir, tables...)
}

// TestHostileVerdictMapKeys explores lookups, literals and deletes of
// maps whose keys are structs, arrays, interfaces and floats, built from
// the inputs. Their shadow tables follow integer, bool and string keys
// only: which entry such a key reaches must be recorded as concretized.
// Before, each target was one path, "exhaustive", with the entry that
// fails missed.
func TestHostileVerdictMapKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, hostileFixture(t, "mapkeys"), "-json", "-max-time", "10s", ".")
	if code != 0 && code != 3 {
		t.Fatalf("exit code %d\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, target := range []string{"PutName", "PutNameArray", "PutNameAny", "PutNameFloat", "PutFound", "PutDropped"} {
		s, ok := got[target]
		if !ok {
			t.Errorf("%s: no summary", target)
			continue
		}
		if s.Exhaustive && len(s.Failures) == 0 {
			t.Errorf("%s: exhaustive with no failure; the input 3, 4 fails", target)
		}
	}
}

// TestHostileVerdictParallel explores PUTs that call t.Parallel, and
// whose subtests do. The worker once ran the PUT in a subtest that
// Parallel paused until the worker ended: a failure that did not
// reproduce was reported at once, and parallel subtests ran after the
// run had ended, their branches unseen ("exhaustive", nothing found).
// The failures must be those go test gives: each reproduces with
// DOWSE_REPRODUCE=1, and the passing rows pass.
func TestHostileVerdictParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, hostileFixture(t, "parallel"), "-json", "-max-time", "10s", ".")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	var tables []string
	for _, tt := range []struct{ target, msg string }{
		{"PutParallel", "five"},
		{"PutParallelSub", "seven"},
		{"PutAfterReturn", "three, after the PUT returned"},
	} {
		s := got[tt.target]
		if len(s.Failures) != 1 || !s.Exhaustive || !strings.Contains(string(s.Failures[0]), tt.msg) {
			t.Errorf("%s: %d failures, exhaustive %v; want its one failing input (%q) found, exhaustively: %s", tt.target, len(s.Failures), s.Exhaustive, tt.msg, stdout)
		}
		tables = append(tables, "TestDowse"+tt.target+"Failures")
	}
	generatedTestsPass(t, dir)
	failuresReproduce(t, dir, tables...)
}

// TestHostileVerdictFlags checks that numeric flags out of range are
// usage errors: -max-memory -5 was once accepted (no bound at all), and
// -mock-calls 0 silently meant 3.
func TestHostileVerdictFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-max-memory=-5"}, "-max-memory -5"},
		{[]string{"-len-cap=-1"}, "-len-cap -1"},
		{[]string{"-mock-calls=0"}, "-mock-calls 0"},
		{[]string{"-mock-calls=-2"}, "-mock-calls -2"},
		{[]string{"-run-timeout=-1s"}, "bounds must not be negative"},
		{[]string{"-max-time=-1s"}, "bounds must not be negative"},
		{[]string{"-solver-timeout=-1s"}, "bounds must not be negative"},
		{[]string{"-max-branches=-1"}, "bounds must not be negative"},
		{[]string{"-workers=-3"}, "-workers"},
		{[]string{"-max-len=-1"}, "-max-len"},
		{[]string{"-fuzz-share=1.5"}, "-fuzz-share"},
	} {
		var stderr strings.Builder
		if _, _, code := parseGenFlags(tt.args, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("%v: exit code %d, stderr %q; want %d and %q", tt.args, code, stderr.String(), exitUsage, tt.msg)
		}
	}
	for _, args := range [][]string{{"-max-memory=0"}, {"-max-memory=10"}, {"-len-cap=0"}, {"-mock-calls=1"}, {"-run-timeout=0"}} {
		if _, _, code := parseGenFlags(args, io.Discard); code != -1 {
			t.Errorf("%v: exit code %d, want the flags accepted", args, code)
		}
	}
}

// TestHostileVerdictResourceBounds explores PUTs that pass on every input
// given enough memory and time, with bounds too small for one input: a
// run beyond -max-memory or -run-timeout ends its worker, which was once
// written into the failure table ("worker exited", "run exceeded"), with
// exit status 3. Such runs are bounds of the verdict, not failures.
// (-isolate off: the sleep runs for real.)
func TestHostileVerdictResourceBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, hostileFixture(t, "resources"), "-json", "-max-memory", "300000000",
		"-run-timeout", "1s", "-max-time", "15s", "-workers", "1", "-isolate", "off", ".")
	if code != 0 {
		t.Fatalf("exit code %d, want 0 (no failure)\n%s\n%s", code, stdout, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var s struct {
			Target     string            `json:"target"`
			Exhaustive bool              `json:"exhaustive"`
			Failures   []json.RawMessage `json:"failures"`
			Incomplete []string          `json:"incomplete"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%v\n%s", err, line)
		}
		want := map[string]string{"PutBuffer": "max-memory", "PutWait": "run-timeout"}[s.Target]
		if len(s.Failures) != 0 || s.Exhaustive || !slices.Contains(s.Incomplete, want) {
			t.Errorf("%s: %d failures, exhaustive %v, incomplete %v; want no failure and the %s bound named:\n%s",
				s.Target, len(s.Failures), s.Exhaustive, s.Incomplete, want, line)
		}
	}
}

// TestHostileVerdictRangeIntoMemory explores a range loop that assigns
// the element to a struct field (for _, c.v = range xs). Such loops kept
// their range form, their elements no shadows and their length no
// condition: one run, "exhaustive", the failing element 42 missed.
func TestHostileVerdictRangeIntoMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, hostileFixture(t, "rangeassign"), "-json", "-max-time", "10s", ".")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s\n%s", code, stdout, stderr)
	}
	if s := summaries(t, stdout)["PutIntoField"]; len(s.Failures) == 0 {
		t.Errorf("PutIntoField: no failure found: %+v", s)
	}
	failuresReproduce(t, dir, "TestDowsePutIntoFieldFailures")
}
