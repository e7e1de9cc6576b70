package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGeneralFloats explores testdata/general/floats, code written the
// way real code handles floats: a clamp that lets NaN through, a unit
// conversion with an overflow check and a NaN guard, a classification by
// thresholds in float32, a ratio that guards division by zero only. Float
// inputs have shadows and float constraints are solved exactly, so every
// planted failure is found (a NaN, the next float after 1.5, the float32
// just below 2/3, a NaN divisor), every target is exhaustive with no
// concretization, and the rows cover every statement of the package.
// Before, floats came from mutation only: PutLevel's failure was missed
// and no target was exhaustive (every float input a concretization).
func TestGeneralFloats(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "floats"), "-json", "-max-time", "60s", ".")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	type result struct {
		Exhaustive      bool  `json:"exhaustive"`
		Concretizations int   `json:"concretizations"`
		Failures        []any `json:"failures"`
	}
	got := targetResults[result](t, stdout)
	for _, target := range []string{"PutClamp", "PutMicros", "PutLevel", "PutRatio"} {
		s, ok := got[target]
		switch {
		case !ok:
			t.Errorf("%s: no result\n%s", target, stdout)
		case len(s.Failures) == 0:
			t.Errorf("%s: no failure found; want its planted failure\n%s", target, stdout)
		case !s.Exhaustive || s.Concretizations != 0:
			t.Errorf("%s: exhaustive %v with %d concretizations; want exhaustive, none\n%s", target, s.Exhaustive, s.Concretizations, stdout)
		}
	}
	failuresReproduce(t, dir, "TestDowsePutClampFailures", "TestDowsePutMicrosFailures", "TestDowsePutLevelFailures", "TestDowsePutRatioFailures")
	cmd := exec.Command("go", "test", "-count=1", "-cover", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "coverage: 100.0% of statements") {
		t.Errorf("go test -cover of the generated tests: %v\n%s", err, out)
	}
}
