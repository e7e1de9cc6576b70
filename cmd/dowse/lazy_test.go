package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// lazySummary is what the tests of large interface choices read of a
// target's JSON summary.
type lazySummary struct {
	Target   string `json:"target"`
	Error    string `json:"error"`
	Paths    int    `json:"paths"`
	Failures []struct {
		Message string `json:"message"`
		PanicAt string `json:"panic_at"`
	} `json:"failures"`
	Incomplete []string `json:"incomplete"`
}

// An encoder taking v any that switches over sixteen record types of
// its package, with fixed-size arrays: laid out side by side, the
// alternatives have more than rt.MaxLeaves leaves, and no collection can
// be cut. They share one pool of leaves instead (docs/inputs.md), so the
// target is explored, its planted failure behind one alternative (a
// certificate's signature length beyond its array) is found, and its
// rows rebuild the values the runs built: the generated tests pass, and
// the certificate's failing row fails again.
func TestLazyPooledAlternatives(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "wire"), "-json", "-max-time", "30s", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (the certificate's signature)\nstdout:\n%s\nstderr:\n%s", code, exitFindings, stdout, stderr)
	}
	s, ok := targetResults[lazySummary](t, stdout)["Marshal"]
	if !ok || s.Error != "" || s.Paths == 0 {
		t.Fatalf("Marshal: not explored (%+v)\n%s", s, stderr)
	}
	if slices.Contains(s.Incomplete, "cut-inputs") {
		t.Errorf("Marshal: incomplete %v: nothing needs cutting", s.Incomplete)
	}
	if !slices.ContainsFunc(s.Failures, func(f struct {
		Message string `json:"message"`
		PanicAt string `json:"panic_at"`
	}) bool {
		return strings.Contains(f.Message, "slice bounds out of range") && f.PanicAt == "wire.go:155"
	}) {
		t.Errorf("Marshal: failures %+v, want the certificate's signature slice (wire.go:155)", s.Failures)
	}
	gen := readTree(t, dir)["wire_dowse_auto_test.go"]
	for _, want := range []string{"Marshal(tt.v)", "&Certificate{", "&Datagram{"} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated tests lack %s:\n%s", want, gen)
		}
	}
	generatedTestsPass(t, dir)
	// The certificate's failing row fails again: run alone, since a
	// panicking row ends the test binary.
	at := strings.Index(gen, `"panic: runtime error: slice bounds out of range`)
	if at < 0 {
		t.Fatalf("no failing row of the certificate's signature:\n%s", gen)
	}
	name := regexp.MustCompile(`name:\s+"([^"]*)"`).FindAllStringSubmatch(gen[:at], -1)
	if len(name) == 0 {
		t.Fatalf("the certificate's failing row has no name:\n%s", gen)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestDowseMarshalFailures$/^"+regexp.QuoteMeta(name[len(name)-1][1])+"$", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DOWSE_REPRODUCE=1")
	out, _ := cmd.CombinedOutput() // the failing row fails
	if !strings.Contains(string(out), "slice bounds out of range") {
		t.Errorf("the certificate's failing row does not fail again with DOWSE_REPRODUCE=1:\n%s", out)
	}
}
