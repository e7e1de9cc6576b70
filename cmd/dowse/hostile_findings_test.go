package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// hostileFailure is what the tests of this file read of a failure in the
// JSON summary.
type hostileFailure struct {
	Message      string `json:"message"`
	Status       string `json:"status"`
	Input        string `json:"input"`
	PanicAt      string `json:"panic_at"`
	NilInput     bool   `json:"nil_input"`
	Documented   bool   `json:"documented"`
	EarlierState bool   `json:"earlier_state"`
	Precondition bool   `json:"precondition"`
	InvalidRecv  bool   `json:"invalid_receiver"`
	Apart        string `json:"apart"`
}

// runHostile runs dowse gen -json on the module testdata/hostile/<name>
// with args and returns the exit code, the failures of each target and
// the text output.
func runHostile(t *testing.T, name string, args ...string) (int, map[string][]hostileFailure, string) {
	t.Helper()
	files := readTree(t, filepath.Join("..", "..", "testdata", "hostile", name))
	code, stdout, stderr, _ := runGenIn(t, files, append([]string{"-json", "-cache=false"}, append(args, "./...")...)...)
	got := map[string][]hostileFailure{}
	for _, s := range summaryList(stdout) {
		for _, raw := range s.Failures {
			var f hostileFailure
			if err := json.Unmarshal(raw, &f); err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			got[s.Target] = append(got[s.Target], f)
		}
	}
	return code, got, stdout + stderr
}

// TestHostileFindingsEarlierState: a registry with a fixed table fills
// up over the runs one worker serves, and the next registration panics
// with an index out of range, which no single call does. Such a failure
// is run again alone in a fresh worker and listed apart, not counted.
func TestHostileFindingsEarlierState(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, got, out := runHostile(t, "earlierstate", "-max-time", "3s", "-workers", "1", "-run", "^Register$")
	fs := got["Register"]
	if len(fs) == 0 {
		t.Fatalf("Register: no failure; want the table's index out of range after many runs\n%s", out)
	}
	for _, f := range fs {
		if !strings.Contains(f.Message, "index out of range") || !f.EarlierState || f.Apart != "earlier state" {
			t.Errorf("Register: failure %+v; want an index out of range marked earlier_state, apart \"earlier state\"", f)
		}
	}
	if code != exitOK {
		t.Errorf("exit code %d, want %d: a failure that depends on earlier runs is not a finding\n%s", code, exitOK, out)
	}
}

// TestHostileFindingsPrecondition: comparators of values held in
// interfaces begin by asserting the type they compare; given another
// type, the assertion panics, which is their precondition, listed apart.
// An assertion after a branch is not such a statement: it stays a
// finding.
func TestHostileFindingsPrecondition(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, got, out := runHostile(t, "precondition", "-max-time", "2s")
	for _, target := range []string{"Ints", "Strings"} {
		fs := got[target]
		if len(fs) == 0 {
			t.Errorf("%s: no failure; want its assertion's panic on another type\n%s", target, out)
		}
		for _, f := range fs {
			if !strings.HasPrefix(f.Message, "interface conversion:") || !f.Precondition || f.Apart != "precondition" {
				t.Errorf("%s: failure %+v; want a failed assertion marked precondition", target, f)
			}
		}
	}
	fs := got["Key"]
	if len(fs) == 0 {
		t.Fatalf("Key: no failure; want its assertion after the branch to fail\n%s", out)
	}
	for _, f := range fs {
		if f.Precondition || f.Apart != "" {
			t.Errorf("Key: failure %+v; want a finding", f)
		}
	}
	if code != exitFindings {
		t.Errorf("exit code %d, want %d (Key's finding)\n%s", code, exitFindings, out)
	}
}

// TestHostileFindingsInvalidReceiver: a cursor's only maker is its
// ring's Cursor method; built from a zero value (no constructor
// function), its nil ring pointer panics in every method, which is not
// a value the package's code is given: listed apart. A type whose doc
// calls its zero value ready to use keeps its nil dereference as a
// finding.
func TestHostileFindingsInvalidReceiver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, got, out := runHostile(t, "invalidreceiver", "-max-time", "2s", "-run", `^(Cursor\.Next|Cursor\.Value|Stats\.Last)$`)
	for _, target := range []string{"Cursor.Next", "Cursor.Value"} {
		fs := got[target]
		if len(fs) == 0 {
			t.Errorf("%s: no failure; want the zero cursor's nil ring\n%s", target, out)
		}
		for _, f := range fs {
			if !f.InvalidRecv || f.Apart != "invalid receiver" {
				t.Errorf("%s: failure %+v; want it marked invalid_receiver", target, f)
			}
		}
	}
	fs := got["Stats.Last"]
	if len(fs) != 1 || fs[0].InvalidRecv || fs[0].Apart != "" {
		t.Errorf("Stats.Last: failures %+v; want one finding (its zero value is documented as ready to use)\n%s", fs, out)
	}
	if code != exitFindings {
		t.Errorf("exit code %d, want %d (Stats.Last's finding)\n%s", code, exitFindings, out)
	}
}

// TestHostileFindingsNilInterface: a nil interface parameter whose
// method the function calls is a nil input, as a nil pointer parameter
// is: listed apart, not a finding.
func TestHostileFindingsNilInterface(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, got, out := runHostile(t, "nilinterface", "-max-time", "2s")
	fs := got["Define"]
	if len(fs) == 0 {
		t.Fatalf("Define: no failure; want the nil value's method call\n%s", out)
	}
	for _, f := range fs {
		if !f.NilInput || f.Apart != "nil input" {
			t.Errorf("Define: failure %+v; want it marked nil_input", f)
		}
	}
	if code != exitOK {
		t.Errorf("exit code %d, want %d\n%s", code, exitOK, out)
	}
}
