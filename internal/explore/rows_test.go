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
	coverRows(rep)
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
	coverRows(one)
	if len(one.Rows) != 1 || one.Rows[0].Run != 1 {
		t.Errorf("rows %+v, want the first", one.Rows)
	}
}
