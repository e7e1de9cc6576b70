package explore

import (
	"fmt"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

func TestCauseMessage(t *testing.T) {
	tests := []struct{ a, b string }{
		{"runtime error: index out of range [-1]", "runtime error: index out of range [0] with length 0"},
		{"runtime error: index out of range [8] with length 8", "runtime error: index out of range [12] with length 3"},
		{"runtime error: slice bounds out of range [:-1]", "runtime error: slice bounds out of range [:-7]"},
		{`Parse("ab") = 3, want 4`, `Parse("a\"b") = 13, want -2`},
	}
	for _, tt := range tests {
		if ma, mb := causeMessage(tt.a), causeMessage(tt.b); ma != mb {
			t.Errorf("causeMessage(%q) = %q, causeMessage(%q) = %q; want them equal", tt.a, ma, tt.b, mb)
		}
	}
	if causeMessage("runtime error: integer divide by zero") == causeMessage("runtime error: index out of range [1] with length 1") {
		t.Error("different messages masked alike")
	}
}

func TestGroupFailures(t *testing.T) {
	leaves := []rt.Leaf{
		{Param: 0, Steps: []rt.Step{{Kind: rt.StepLen}}, K: rt.KInt, IsLen: true, Max: 10, Path: "len(b)"},
		{Param: 0, Steps: []rt.Step{{Kind: rt.StepIndex, N: 0}}, K: rt.KUint8, Path: "b[0]"},
		{Param: 1, K: rt.KInt64, Path: "n"},
	}
	bounds := func(i int) string { return fmt.Sprintf("runtime error: slice bounds out of range [:%d]", -i) }
	var rep Report
	// Eight failing paths at one site (inputs of length 1 to 8, some with
	// a large n), two of another cause.
	for i := 1; i <= 8; i++ {
		in := []rt.Value{{Bits: uint64(9 - i)}, {Bits: 7}, {Bits: uint64(100 * (i % 3))}}
		rep.Rows = append(rep.Rows, Row{Run: i, Inputs: in, Status: rt.StatusPanic})
		rep.Failures = append(rep.Failures, Failure{Row: i - 1, Run: i, Status: rt.StatusPanic, Messages: []string{bounds(i)}, PanicAt: "cfg.go:28", Inputs: in})
	}
	for i := 9; i <= 10; i++ {
		in := []rt.Value{{Bits: 2}, {Bits: 1}, {Bits: uint64(i)}}
		rep.Rows = append(rep.Rows, Row{Run: i, Inputs: in, Status: rt.StatusFail})
		rep.Failures = append(rep.Failures, Failure{Row: i - 1, Run: i, Status: rt.StatusFail, Messages: []string{fmt.Sprintf("Load(%d) = nil", i)}, Inputs: in})
	}
	rep.Rows = append(rep.Rows, Row{Run: 11, Status: rt.StatusPass})
	groupFailures(&rep, leaves, MaxPerFinding, MaxFailures)
	var got []string
	for _, f := range rep.Failures {
		got = append(got, fmt.Sprintf("finding %d run %d similar %d", f.Finding, f.Run, f.Similar))
		if r := rep.Rows[f.Row]; r.Run != f.Run {
			t.Errorf("failure of run %d names row of run %d", f.Run, r.Run)
		}
	}
	want := []string{
		// The shortest input first (run 8: length 1), then the next ones found.
		"finding 1 run 8 similar 5", "finding 1 run 1 similar 0", "finding 1 run 2 similar 0",
		"finding 2 run 9 similar 0", "finding 2 run 10 similar 0",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("failures:\n%q\nwant\n%q", got, want)
	}
	if len(rep.Rows) != 6 {
		t.Errorf("%d rows, want 6: the 5 failures kept and the passing row", len(rep.Rows))
	}

	// A bound on the failures kept takes the others of the groups first.
	rep2 := Report{}
	for i := 1; i <= 8; i++ {
		in := []rt.Value{{Bits: uint64(i)}, {}, {}}
		rep2.Failures = append(rep2.Failures, Failure{Row: -1, Run: i, Status: rt.StatusPanic, Messages: []string{bounds(i)}, PanicAt: fmt.Sprintf("a.go:%d", i%2), Inputs: in})
	}
	groupFailures(&rep2, leaves, MaxPerFinding, 3)
	if len(rep2.Failures) != 3 || rep2.Failures[0].Similar != 2 || rep2.Failures[2].Similar != 3 || rep2.OmittedFailures != 0 {
		t.Errorf("with a bound of 3: %+v", rep2.Failures)
	}
}

func TestLabeledInputText(t *testing.T) {
	leaves := []rt.Leaf{
		{Param: 0, K: rt.KString, Path: "path"},
		{Param: 1, Steps: []rt.Step{{Kind: rt.StepCall, N: 0}, {Kind: rt.StepArg, Name: "r0"}, {Kind: rt.StepLen}}, K: rt.KInt, IsLen: true, Max: 4, Path: "len(iso:Load.ReadFile.1.call[0].r0)"},
		{Param: 1, Steps: []rt.Step{{Kind: rt.StepCall, N: 0}, {Kind: rt.StepArg, Name: "r0"}, {Kind: rt.StepIndex, N: 0}}, K: rt.KUint8, Path: "iso:Load.ReadFile.1.call[0].r0[0]"},
		{Param: 1, Steps: []rt.Step{{Kind: rt.StepCall, N: 1}, {Kind: rt.StepArg, Name: "r1"}, {Kind: rt.StepChoice}}, K: rt.KBool, Choice: true, Path: "iso:Load.ReadFile.1.call[1].r1 != nil"},
	}
	in := []rt.Value{{Str: "a"}, {Bits: 1}, {Bits: 61}, {Bits: 0}}
	labels := map[string]string{"iso:Load.ReadFile.1": "os.ReadFile"}
	tests := []struct {
		labels map[string]string
		want   string
	}{
		{nil, `path="a", len(iso:Load.ReadFile.1.call[0].r0)=1, iso:Load.ReadFile.1.call[0].r0[0]=61, iso:Load.ReadFile.1.call[1].r1 != nil=false`},
		{labels, `path="a", os.ReadFile#1 returned len(r0)=1, r0[0]=61, os.ReadFile#2 returned r1 != nil=false`},
	}
	for _, tt := range tests {
		if got := LabeledInputText(leaves, in, tt.labels); got != tt.want {
			t.Errorf("LabeledInputText(labels %v) =\n%s\nwant\n%s", tt.labels, got, tt.want)
		}
	}
}
