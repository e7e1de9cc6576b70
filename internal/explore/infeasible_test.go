package explore

import (
	"reflect"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// contradiction has a branch outcome no input takes: x < 3 after x > 5.
var contradiction = &program{name: "PutContradiction", leaves: intLeaves("x"), run: func(t *tracer) {
	x := t.in(0)
	if t.cmp(1, rt.OpGt, x, t.konst(5)) {
		if t.cmp(2, rt.OpLt, x, t.konst(3)) {
			t.fail("unreachable")
		}
	}
}}

// TestInfeasibleOutcomes checks that the outcomes proven infeasible are
// reported, and those some run took are not.
func TestInfeasibleOutcomes(t *testing.T) {
	rep := explore(t, contradiction, Config{}, &fakeExec{p: contradiction}, &bruteSolver{r: 8})
	if want := []Branch{{2, true}}; !reflect.DeepEqual(rep.Infeasible, want) {
		t.Errorf("infeasible = %v, want %v (covered %v)", rep.Infeasible, want, rep.Covered)
	}
	if want := []Branch{{1, false}, {1, true}, {2, false}}; !reflect.DeepEqual(rep.Covered, want) {
		t.Errorf("covered = %v, want %v", rep.Covered, want)
	}
}
