package solver

import (
	"context"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

func TestScratchMicro(t *testing.T) {
	c := sym.NewContext()
	s := c.Input(0, rt.KString)
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 10}}
	q := Query{Constraints: []*sym.Expr{c.Compare(rt.OpGe, c.Index(s, c.Const(rt.KInt, 1)), c.Const(rt.KUint8, 128))}, Leaves: leaves, Seed: []rt.Value{{Str: "abc"}}}
	core := NewZ3(Options{KeepSeed: true})
	t0 := time.Now()
	for range 200 {
		core.Solve(context.Background(), q)
	}
	t.Logf("%v per query", time.Since(t0)/200)
}
