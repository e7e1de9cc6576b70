package explore

import (
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

func TestLengthHint(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{
		{Path: "s", K: rt.KString, Max: 10},
		{Path: "len(b)", Param: 1, K: rt.KInt, IsLen: true, Max: 10},
		{Path: "b[0]", Param: 1, K: rt.KUint8},
		{Path: "n", Param: 2, K: rt.KInt},
	}
	s, lenB, b0, n := c.Input(0, rt.KString), c.Input(1, rt.KInt), c.Input(2, rt.KUint8), c.Input(3, rt.KInt)
	long := strings.Repeat("x", 43)
	bytesOf := func(str string) *sym.Expr {
		var bs []*sym.Expr
		for i := 0; i < len(str); i++ {
			bs = append(bs, c.Const(rt.KUint8, uint64(str[i])))
		}
		return c.FromList(bs)
	}
	num := func(v int64) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	tests := []struct {
		name string
		cond *sym.Expr
		want int
	}{
		{"a string compared with a long constant", c.Compare(rt.OpEq, s, c.Str(long)), 43},
		{"negated", c.Not(c.Compare(rt.OpEq, s, c.Str(long))), 43},
		{"a length compared with a constant", c.Compare(rt.OpEq, c.Len(s), num(50)), 51},
		{"a constant compared with a length", c.Compare(rt.OpLt, num(60), c.Len(s)), 61},
		{"a slice's length leaf", c.Compare(rt.OpGe, lenB, num(44)), 45},
		{"a length minus a constant", c.Compare(rt.OpEq, c.Binary(rt.OpSub, c.Len(s), n), num(47)), 48},
		{"a converted length", c.Compare(rt.OpEq, c.Conv(rt.KInt64, c.Len(s)), c.Const(rt.KInt64, 52)), 53},
		{"a list of bytes", c.Compare(rt.OpEq, s, bytesOf(strings.Repeat("y", 44))), 44},
		{"an integer that is not a length", c.Compare(rt.OpEq, n, num(500)), 0},
		{"a byte", c.Compare(rt.OpEq, b0, c.Const(rt.KUint8, 200)), 0},
		{"a negative constant", c.Compare(rt.OpLt, c.Len(s), num(-1)), 0},
		{"beyond the largest bound", c.Compare(rt.OpEq, c.Len(s), num(5000)), 0},
		{"a longer constant is cut", c.Compare(rt.OpEq, s, c.Str(strings.Repeat("z", 2000))), maxRelaxed},
		{"the longest of a conjunction", c.And(c.Compare(rt.OpEq, c.Len(s), num(20)), c.Compare(rt.OpEq, s, c.Str(long))), 43},
	}
	for _, tt := range tests {
		if got := lengthHint([]*sym.Expr{tt.cond}, leaves); got != tt.want {
			t.Errorf("%s: lengthHint(%s) = %d, want %d", tt.name, sym.Format(tt.cond, leaves), got, tt.want)
		}
	}
}
