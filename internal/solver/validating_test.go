package solver

import (
	"context"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// fixedAnswer is a Solver that gives one answer to every query.
type fixedAnswer struct{ r Result }

func (a fixedAnswer) Solve(context.Context, Query) (Result, error) { return a.r, nil }

// TestValidating checks that the layer passes right answers through and
// turns wrong ones into errors naming what is wrong.
func TestValidating(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt8}, {Path: "s", K: rt.KString, Max: 2}}
	x := c.Input(0, rt.KInt8)
	i8 := func(v int64) *sym.Expr { return c.Const(rt.KInt8, uint64(v)) }
	sat := Query{Constraints: []*sym.Expr{c.Compare(rt.OpGt, x, i8(5)), c.Compare(rt.OpLt, x, i8(9))}, Leaves: leaves, Seed: []rt.Value{{}, {}}}
	unsat := Query{Constraints: []*sym.Expr{c.Compare(rt.OpGt, x, i8(5)), c.Compare(rt.OpLt, x, i8(6))}, Leaves: leaves, Seed: []rt.Value{{}, {}}}
	core := NewZ3(bareOptions(Options{}))
	defer core.Close()
	tests := []struct {
		name  string
		next  Result
		bare  Solver
		q     Query
		wrong string // in the error, or "" for none
	}{
		{"a right model", Result{Status: Sat, Model: []rt.Value{{Bits: 7}, {}}}, nil, sat, ""},
		{"a model false on a constraint", Result{Status: Sat, Model: []rt.Value{{Bits: 9}, {}}}, nil, sat, "x < 9, is false"},
		{"a model out of its domain", Result{Status: Sat, Model: []rt.Value{{Bits: 7}, {Str: "abc"}}}, nil, sat, "s: 3 bytes"},
		{"a model of the wrong size", Result{Status: Sat, Model: []rt.Value{{Bits: 7}}}, nil, sat, "1 values for 2 leaves"},
		{"a right Unsat", Result{Status: Unsat}, core, unsat, ""},
		{"a wrong Unsat", Result{Status: Unsat}, core, sat, "Unsat answer is wrong"},
		{"an Unsat not checked", Result{Status: Unsat}, nil, sat, ""},
		{"an Unknown", Result{Status: Unknown}, core, sat, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewValidating(fixedAnswer{tt.next}, tt.bare)
			got, err := v.Solve(context.Background(), tt.q)
			switch {
			case tt.wrong == "" && err != nil:
				t.Fatalf("error %v for a right answer", err)
			case tt.wrong == "" && got.Status != tt.next.Status:
				t.Fatalf("status %s passed on as %s", tt.next.Status, got.Status)
			case tt.wrong != "" && err == nil:
				t.Fatalf("no error for a wrong answer")
			case tt.wrong != "" && !strings.Contains(err.Error(), tt.wrong):
				t.Fatalf("error %q does not say %q", err, tt.wrong)
			}
		})
	}
}

// TestDisable checks that Config.Disable and EnvDisable each take a layer
// and a core stage out of the chain, by their counters.
func TestDisable(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "key", K: rt.KInt64}, {Path: "b", K: rt.KInt64}}
	key, b := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64)
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	rem := c.Binary(rt.OpRem, key, i64(4))
	// A bucket the path fixed (refuted), and a linear query no single
	// move from the seed solves.
	refutable := Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, rem, i64(3)), c.Compare(rt.OpEq, rem, i64(0))}, Leaves: leaves, Seed: []rt.Value{{Bits: 3}, {}}}
	sum := c.Binary(rt.OpAdd, c.Binary(rt.OpMul, key, i64(3)), c.Binary(rt.OpMul, b, i64(5)))
	linear := Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, c.Binary(rt.OpSub, key, b), i64(3)), c.Compare(rt.OpEq, sum, i64(1001))}, Leaves: leaves, Seed: []rt.Value{{}, {}}}
	counts := func(t *testing.T, cfg Config) Stats {
		ch := New(cfg)
		defer ch.Close()
		for _, q := range []Query{refutable, linear} {
			if _, err := ch.Solve(context.Background(), q); err != nil {
				t.Fatal(err)
			}
		}
		return ch.Stats()
	}
	all := counts(t, Config{})
	if all.Refuted != 1 || all.Linear != 1 {
		t.Fatalf("full chain: %d refuted, %d linear; want 1 and 1", all.Refuted, all.Linear)
	}
	if st := counts(t, Config{Disable: []string{"refute"}}); st.Refuted != 0 || st.Unsat != 1 {
		t.Errorf("refute disabled: %d refuted, %d unsat; want 0 and 1", st.Refuted, st.Unsat)
	}
	t.Setenv(EnvDisable, " linear,refute ")
	if st := counts(t, Config{}); st.Refuted != 0 || st.Linear != 0 || st.Sat != 1 || st.Unsat != 1 {
		t.Errorf("%s=linear,refute: %d refuted, %d linear, %d sat, %d unsat; want 0, 0, 1, 1", EnvDisable, st.Refuted, st.Linear, st.Sat, st.Unsat)
	}
}

// TestDisableNames checks the parsing of the names to disable.
func TestDisableNames(t *testing.T) {
	off, unknown := disabled([]string{"order", " box ", "", "orders"})
	if !off["order"] || !off["box"] || len(off) != 2 {
		t.Errorf("disabled %v, want order and box", off)
	}
	if len(unknown) != 1 || unknown[0] != "orders" {
		t.Errorf("unknown names %v, want [orders]", unknown)
	}
}
