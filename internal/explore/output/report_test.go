package output

import (
	"go/token"
	"reflect"
	"testing"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/rt"
)

// TestReportData checks the branches and rows the summary carries for the
// HTML report: every branch site (not the sites that only name a
// concretization), each outcome covered, proven infeasible or open, and
// the rows with their inputs and results.
func TestReportData(t *testing.T) {
	pos := func(line, col int) token.Position {
		return token.Position{Filename: "/m/a.go", Line: line, Column: col}
	}
	opts := Options{Dir: "/m", Sites: []build.Site{
		{ID: 1, Pos: pos(3, 5), Kind: "cond"},
		{ID: 2, Pos: pos(4, 9), Kind: "index"},
		{ID: 3, Pos: pos(5, 2), Kind: "call"},
		{ID: 4, Pos: pos(6, 5), Kind: "cond"},
	}}
	leaves := []rt.Leaf{{Path: "n", K: rt.KInt64}}
	rep := &explore.Report{
		Leaves:     leaves,
		Covered:    []explore.Branch{{Site: 1, Taken: false}, {Site: 1, Taken: true}, {Site: 2, Taken: true}, {Site: rt.InputSite, Taken: true}},
		Infeasible: []explore.Branch{{Site: 2, Taken: false}},
		Rows: []explore.Row{
			{Run: 1, Inputs: []rt.Value{{Bits: 3}}, Status: rt.StatusPass},
			{Run: 4, Inputs: []rt.Value{{Bits: uint64(0xffffffffffffffff)}}, Status: rt.StatusPanic, Messages: []string{"boom"}, PanicAt: "/m/a.go:7"},
		},
	}
	sum := NewTarget("example.com/m", &load.Target{Name: "PutA", Pos: pos(1, 1)}, rep, opts)
	wantSites := []BranchSite{
		{Pos: "a.go:3:5", Kind: "cond", True: OutcomeCovered, False: OutcomeCovered},
		{Pos: "a.go:4:9", Kind: "index", True: OutcomeCovered, False: OutcomeInfeasible},
		{Pos: "a.go:6:5", Kind: "cond", True: OutcomeOpen, False: OutcomeOpen},
	}
	if !reflect.DeepEqual(sum.Branches, wantSites) {
		t.Errorf("branches:\n%+v\nwant:\n%+v", sum.Branches, wantSites)
	}
	wantRows := []Row{
		{Run: 1, Input: "n=3", Status: "pass"},
		{Run: 4, Input: "n=-1", Status: "panic", Result: "boom (at a.go:7)"},
	}
	if !reflect.DeepEqual(sum.Rows, wantRows) {
		t.Errorf("rows:\n%+v\nwant:\n%+v", sum.Rows, wantRows)
	}
	if sum.Coverage.Covered != 3 || sum.Coverage.Outcomes != 2*len(wantSites) {
		t.Errorf("coverage %+v: not what the branches say", sum.Coverage)
	}
}
