package explore

import (
	"reflect"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

func TestCoverRows(t *testing.T) {
	b := func(site uint32, taken bool) Branch { return Branch{site, taken} }
	rep := &Report{
		Rows: []Row{
			{Run: 1, Status: rt.StatusPass, Outcomes: []Branch{b(1, false), b(2, false)}},
			{Run: 2, Status: rt.StatusPass, Outcomes: []Branch{b(1, true), b(3, false), b(3, false)}},
			{Run: 3, Status: rt.StatusFail, Outcomes: []Branch{b(1, true), b(3, true)}},
			{Run: 4, Status: rt.StatusPass, Outcomes: []Branch{b(1, true), b(3, false)}}, // nothing new
			{Run: 5, Status: rt.StatusPass, Outcomes: []Branch{b(1, false), b(2, true), b(4, true), b(4, false)}},
			{Run: 6, Status: rt.StatusPanic, Outcomes: []Branch{b(1, false)}},
		},
		Failures: []Failure{{Row: 2, Run: 3}, {Row: 5, Run: 6}, {Row: -1, Run: 7}},
	}
	coverRows(rep, 0)
	var runs []int
	for _, r := range rep.Rows {
		runs = append(runs, r.Run)
	}
	// Run 5 first (three new outcomes), then 1 and 2 (two each, earliest
	// first): run 1 adds (2, false), run 2 (1, true) and (3, false). Run 4
	// adds nothing; the failing rows stay.
	if want := []int{1, 2, 3, 5, 6}; !reflect.DeepEqual(runs, want) {
		t.Errorf("rows of runs %v, want %v", runs, want)
	}
	for _, f := range rep.Failures {
		if f.Row >= 0 && rep.Rows[f.Row].Run != f.Run {
			t.Errorf("failure of run %d names row %d (run %d)", f.Run, f.Row, rep.Rows[f.Row].Run)
		}
	}
	if rep.Failures[2].Row != -1 {
		t.Errorf("a failure without a row got row %d", rep.Failures[2].Row)
	}

	// A target without branches keeps its one passing row.
	one := &Report{Rows: []Row{{Run: 1, Status: rt.StatusPass}, {Run: 2, Status: rt.StatusPass}}}
	coverRows(one, 0)
	if len(one.Rows) != 1 || one.Rows[0].Run != 1 {
		t.Errorf("rows %+v, want the first", one.Rows)
	}
}

// Regression targets keep passing rows beyond the cover up to a limit, one
// failure per status, message and panic site, and mark nil dereferences
// on a nil parameter.
func TestRegressionRows(t *testing.T) {
	b := func(site uint32, taken bool) Branch { return Branch{site, taken} }
	capped := &Report{Rows: []Row{
		{Run: 1, Status: rt.StatusPass, Outcomes: []Branch{b(1, true)}},
		{Run: 2, Status: rt.StatusPass, Outcomes: []Branch{b(1, true)}},
		{Run: 3, Status: rt.StatusPass, Outcomes: []Branch{b(1, true)}},
		{Run: 4, Status: rt.StatusPass, Outcomes: []Branch{b(1, false)}},
	}}
	coverRows(capped, 3)
	var runs []int
	for _, r := range capped.Rows {
		runs = append(runs, r.Run)
	}
	if want := []int{1, 2, 4}; !reflect.DeepEqual(runs, want) {
		t.Errorf("rows of runs %v, want the cover (1, 4) and then run 2", runs)
	}

	leaves := []rt.Leaf{
		{Param: 0, Steps: []rt.Step{{Kind: rt.StepChoice}}, K: rt.KBool, Choice: true},
		{Param: 0, Steps: []rt.Step{{Kind: rt.StepDeref}, {Kind: rt.StepField, Name: "next"}, {Kind: rt.StepChoice}}, K: rt.KBool, Choice: true},
	}
	nilDeref := []string{"runtime error: invalid memory address or nil pointer dereference"}
	rep := &Report{
		Rows: []Row{
			{Run: 1, Status: rt.StatusPanic}, {Run: 2, Status: rt.StatusPanic}, {Run: 3, Status: rt.StatusPanic}, {Run: 4, Status: rt.StatusPass},
		},
		Failures: []Failure{
			{Row: 0, Run: 1, Status: rt.StatusPanic, Messages: nilDeref, PanicAt: "a.go:1", Inputs: []rt.Value{{Bits: 0}, {}}},
			{Row: 1, Run: 2, Status: rt.StatusPanic, Messages: nilDeref, PanicAt: "a.go:2", Inputs: []rt.Value{{Bits: 1}, {Bits: 0}}},
			{Row: 2, Run: 3, Status: rt.StatusPanic, Messages: nilDeref, PanicAt: "a.go:2", Inputs: []rt.Value{{Bits: 1}, {Bits: 1}}},
		},
	}
	groupFailures(rep, leaves, 1, 0)
	if len(rep.Failures) != 2 || rep.Failures[1].Similar != 1 || len(rep.Rows) != 3 {
		t.Fatalf("failures %+v, rows %+v; want two groups, the second with one similar path dropped", rep.Failures, rep.Rows)
	}
	if !rep.Failures[0].NilInput || rep.Failures[1].NilInput {
		t.Errorf("nil input: %v, %v; want only the nil parameter's dereference marked", rep.Failures[0].NilInput, rep.Failures[1].NilInput)
	}
	for _, f := range rep.Failures {
		if rep.Rows[f.Row].Run != f.Run {
			t.Errorf("failure of run %d names row %d (run %d)", f.Run, f.Row, rep.Rows[f.Row].Run)
		}
	}
}

func TestNilParam(t *testing.T) {
	ptr := rt.Leaf{Param: 0, Steps: []rt.Step{{Kind: rt.StepChoice}}, K: rt.KBool, Choice: true}
	field := rt.Leaf{Param: 0, Steps: []rt.Step{{Kind: rt.StepDeref}, {Kind: rt.StepField, Name: "next"}, {Kind: rt.StepChoice}}, K: rt.KBool, Choice: true}
	iface := rt.Leaf{Param: 1, Steps: []rt.Step{{Kind: rt.StepType}}, K: rt.KInt, IsLen: true, Max: 3}
	tests := []struct {
		name   string
		leaves []rt.Leaf
		in     []rt.Value
		want   bool
	}{
		{"nil pointer parameter", []rt.Leaf{ptr, field}, []rt.Value{{Bits: 0}, {Bits: 1}}, true},
		{"nil field only", []rt.Leaf{ptr, field}, []rt.Value{{Bits: 1}, {Bits: 0}}, false},
		{"nil interface parameter", []rt.Leaf{ptr, iface}, []rt.Value{{Bits: 1}, {Bits: 0}}, true},
		{"interface holding a value", []rt.Leaf{ptr, iface}, []rt.Value{{Bits: 1}, {Bits: 2}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nilParam(tt.leaves, tt.in); got != tt.want {
				t.Errorf("nilParam = %v, want %v", got, tt.want)
			}
		})
	}
}
