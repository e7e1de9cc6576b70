package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
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
	Finding      int    `json:"finding"`
	Similar      int    `json:"similar"`
}

// hostileFinding is a finding of the JSON summary.
type hostileFinding struct {
	ID      int    `json:"id"`
	Status  string `json:"status"`
	PanicAt string `json:"panic_at"`
	Message string `json:"message"`
	Input   string `json:"input"`
	Inputs  int    `json:"inputs"`
	Apart   string `json:"apart"`
}

// lastDir is the module directory of the last runHostile.
var lastDir string

// runHostile runs dowse gen -json on the module testdata/hostile/<name>
// with args and returns the exit code, the failures of each target and
// the text output.
func runHostile(t *testing.T, name string, args ...string) (int, map[string][]hostileFailure, string) {
	t.Helper()
	files := readTree(t, filepath.Join("..", "..", "testdata", "hostile", name))
	code, stdout, stderr, dir := runGenIn(t, files, append([]string{"-json", "-cache=false"}, append(args, "./...")...)...)
	lastDir = dir
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
// ring's Cursor method, which builds it (not a zero Cursor, whose nil
// ring pointer panics in every method). An entry has no maker the
// package exports: built from a zero value, its nil dereferences are
// not values the package's code is given, listed apart. A type whose
// doc calls its zero value ready to use keeps its nil dereference as a
// finding.
func TestHostileFindingsInvalidReceiver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, got, out := runHostile(t, "invalidreceiver", "-max-time", "2s", "-run", `^(Cursor\.Next|Entry\.Value|Stats\.Last)$`)
	if fs := got["Cursor.Next"]; len(fs) != 0 {
		t.Errorf("Cursor.Next: failures %+v; want none, the cursor made by (*Ring).Cursor", fs)
	}
	gen, err := os.ReadFile(filepath.Join(lastDir, "ring_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gen), "(*Ring).Cursor(") {
		t.Errorf("ring_dowse_auto_test.go does not make cursors by (*Ring).Cursor\n%s", gen)
	}
	fs := got["Entry.Value"]
	if len(fs) == 0 {
		t.Errorf("Entry.Value: no failure; want the zero entry's nil ring\n%s", out)
	}
	for _, f := range fs {
		if !f.InvalidRecv || f.Apart != "invalid receiver" {
			t.Errorf("Entry.Value: failure %+v; want it marked invalid_receiver", f)
		}
	}
	fs = got["Stats.Last"]
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

// TestHostileFindingsOneBug: a settings loader slices a line up to its
// "=" without checking there is one; every path that reaches a line
// without "=" fails there, in many ways. That is one bug: reported
// once, with its smallest input (the isolated os.ReadFile's result
// named as such) and the number of inputs that reach it, and a few of
// them kept in the failure table.
func TestHostileFindingsOneBug(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := readTree(t, filepath.Join("..", "..", "testdata", "hostile", "onebug"))
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-cache=false", "-max-time", "4s", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	var s struct {
		Target   string           `json:"target"`
		Failures []hostileFailure `json:"failures"`
		Findings []hostileFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(s.Findings) != 1 {
		t.Fatalf("%d findings, want 1 (the slice bound at cfg.go:22)\n%s", len(s.Findings), stdout)
	}
	fd := s.Findings[0]
	if fd.ID != 1 || fd.PanicAt != "cfg.go:22" || !strings.Contains(fd.Message, "slice bounds out of range") || fd.Inputs <= 3 {
		t.Errorf("finding %+v; want the slice bound at cfg.go:22 reached by more than 3 inputs", fd)
	}
	if !strings.Contains(fd.Input, "os.ReadFile#1 returned ") || strings.Contains(fd.Input, "iso:") {
		t.Errorf("smallest input %q; want the isolated call's results as os.ReadFile#1 returned ...", fd.Input)
	}
	if len(s.Failures) > 3 {
		t.Errorf("%d failures listed, want at most 3 per finding", len(s.Failures))
	}
	inputs := 0
	for _, f := range s.Failures {
		if f.Finding != 1 {
			t.Errorf("failure %+v not of finding 1", f)
		}
		inputs += 1 + f.Similar
	}
	if inputs != fd.Inputs {
		t.Errorf("the failures count %d inputs, the finding %d", inputs, fd.Inputs)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "cfg_dowse_isolated_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(regexp.MustCompile(`(?m)^\s+found:\s+"`).FindAll(gen, -1)); n < 1 || n > 3 {
		t.Errorf("%d rows in the failure table, want 1 to 3 (a few inputs of the one finding)", n)
	}
}
