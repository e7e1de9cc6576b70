package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGeneralStructKeys explores a board keyed by struct coordinates and a
// count of digrams keyed by arrays: lookups, stores, op-assignments,
// deletes and the length of maps whose keys are built of the inputs. The
// tables compare such keys leaf by leaf, so the coordinates that reach the
// planted failures are solved for, and the targets that are not bounded
// by a loop are explored exhaustively. Before, every such access was a
// concretization: no failure found, none exhaustive.
func TestGeneralStructKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, general(t, "structkeys"), "-json", "-max-time", "10s", ".")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, tt := range []struct {
		target, input string
		exhaustive    bool
	}{
		{"PutLandmark", `x=-2, y=7`, true},
		{"PutBoard", `c=35`, true},
		{"PutClear", `x1=2, y1=3, x2=2, y2=3`, true},
		{"PutDigrams", `s=\"okok\"`, false},
	} {
		s := got[tt.target]
		if len(s.Failures) == 0 || !strings.Contains(string(s.Failures[0]), tt.input) {
			t.Errorf("%s: failures %s, want one with input %s", tt.target, s.Failures, tt.input)
		}
		if tt.exhaustive && !s.Exhaustive {
			t.Errorf("%s: not exhaustive", tt.target)
		}
	}
}

// TestGeneralStructKeyInputs explores functions that take maps keyed by a
// struct and by an array: such maps are inputs (their keys' leaves solved
// for, compared with each other as the worker stores them), rows write
// them as literals, and a range over them visits the keys with their
// shadows. Before, both targets were skipped ("map keys of integer, bool
// and string types only").
func TestGeneralStructKeyInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "structkeyinputs"), "-json", "-max-len", "2", "-max-time", "10s", ".")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, target := range []string{"PutPeak", "PutCovered"} {
		s := got[target]
		if len(s.Failures) == 0 || !s.Exhaustive {
			t.Errorf("%s: %d failures, exhaustive %v; want its planted failure found, exhaustively", target, len(s.Failures), s.Exhaustive)
		}
	}
	failuresReproduce(t, dir, "TestDowsePutPeakFailures", "TestDowsePutCoveredFailures")
}

// TestGeneralMinMax explores code that computes with min and max of
// integers and strings: the overlap of two rectangles, a clamp, the first
// of three names. Their results have exact shadows, so each planted
// failure is found (and on an idle machine each target is explored
// exhaustively in about 2 s). Before, the results had no shadow: every
// target was called exhaustive with its failure missed.
func TestGeneralMinMax(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "minmax"), "-json", "-max-time", "15s", ".")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, target := range []string{"PutOverlap", "PutClamp", "PutFirst"} {
		if s := got[target]; len(s.Failures) == 0 {
			t.Errorf("%s: no failure found; want its planted failure\n%s", target, stdout)
		}
	}
	failuresReproduce(t, dir, "TestDowsePutOverlapFailures", "TestDowsePutClampFailures", "TestDowsePutFirstFailures")
}

// TestGeneralClear explores a ring buffer that clear resets: the cleared
// samples keep no shadows, so the one path is explored exhaustively.
// Before, a sample that was 0 kept the shadow of the input it once held:
// the branch on the sum had the inputs' condition, and the run that
// negated it took the same branch (a divergence, never exhaustive).
func TestGeneralClear(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, general(t, "clear"), "-json", "-max-time", "10s", ".")
	if code != 0 {
		t.Fatalf("exit code %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	var s struct {
		Target      string `json:"target"`
		Exhaustive  bool   `json:"exhaustive"`
		Divergences int    `json:"divergences"`
	}
	if err := json.NewDecoder(strings.NewReader(stdout)).Decode(&s); err != nil {
		t.Fatal(err)
	}
	if s.Target != "PutReset" || !s.Exhaustive || s.Divergences != 0 {
		t.Errorf("%s: exhaustive %v, %d divergences; want exhaustive, none\n%s", s.Target, s.Exhaustive, s.Divergences, stdout)
	}
}
