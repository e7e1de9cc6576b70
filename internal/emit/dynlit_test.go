package emit

import (
	"go/types"
	"math"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// A value in an interface is written with its own type: an untyped
// constant there would take its default type (int8(6) written 6 holds an
// int, and x.(int8) panics).
func TestDynLit(t *testing.T) {
	named := types.NewNamed(types.NewTypeName(0, types.NewPackage("example.com/p", "p"), "Level", nil), types.Typ[types.Int8], nil)
	f64 := func(f float64) uint64 { return math.Float64bits(f) }
	for _, tt := range []struct {
		t    types.Type
		kind rt.Kind
		bits uint64
		str  string
		flt  bool
		want string
	}{
		{types.Typ[types.Int], rt.KInt, 6, "", false, "6"},
		{types.Typ[types.Int8], rt.KInt8, 6, "", false, "int8(6)"},
		{types.Typ[types.Int8], rt.KInt8, uint64(0xff), "", false, "int8(-1)"},
		{types.Typ[types.Int64], rt.KInt64, 7, "", false, "int64(7)"},
		{types.Typ[types.Uint], rt.KUint, 7, "", false, "uint(7)"},
		{types.Universe.Lookup("byte").Type(), rt.KUint8, 'x', "", false, "byte('x')"},
		{types.Universe.Lookup("byte").Type(), rt.KUint8, 1, "", false, "byte(0x01)"},
		{types.Universe.Lookup("rune").Type(), rt.KInt32, 'x', "", false, "'x'"},
		{types.Typ[types.Int32], rt.KInt32, 0x10ffff + 1, "", false, "int32(1114112)"},
		{types.Typ[types.Uint64], rt.KUint64, math.MaxUint64, "", false, "uint64(0xffffffffffffffff)"},
		{types.Typ[types.Float64], rt.KUint64, f64(3), "", true, "float64(3)"},
		{types.Typ[types.Float64], rt.KUint64, f64(1.5), "", true, "1.5"},
		{types.Typ[types.Float64], rt.KUint64, f64(math.NaN()), "", true, "math.NaN()"},
		{types.Typ[types.Float32], rt.KUint32, uint64(math.Float32bits(1.5)), "", true, "float32(1.5)"},
		{types.Typ[types.String], rt.KString, 0, "s", false, `"s"`},
		{types.Typ[types.Bool], rt.KBool, 1, "", false, "true"},
		{named, rt.KInt8, 6, "", false, "p.Level(6)"},
	} {
		r := newRenderer("example.com/q", newImportSet("example.com/q", nil))
		v := &value{t: tt.t, kind: tt.kind, bits: tt.bits, str: tt.str, float: tt.flt}
		if got := r.dynLit(v); got != tt.want {
			t.Errorf("dynLit(%s %#x %q) = %s, want %s", tt.t, tt.bits, tt.str, got, tt.want)
		}
	}
}
