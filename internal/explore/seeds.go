package explore

import (
	"math"
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// zeroInputs is the input vector of zero values.
func zeroInputs(leaves []rt.Leaf) []rt.Value {
	return make([]rt.Value, len(leaves))
}

// SeedInputs turns seeds (Go values of a fuzz target's parameters: int64,
// uint64, bool, string, []byte) into input vectors for leaves. Seeds that
// do not fit the layout (another number of parameters, a string or slice
// longer than the length bound) are left out.
func SeedInputs(leaves []rt.Leaf, seeds [][]any) [][]rt.Value {
	var out [][]rt.Value
	for _, seed := range seeds {
		if in, ok := seedInput(leaves, seed); ok && !slices.ContainsFunc(out, func(o []rt.Value) bool { return slices.Equal(o, in) }) {
			out = append(out, in)
		}
	}
	return out
}

func seedInput(leaves []rt.Leaf, seed []any) ([]rt.Value, bool) {
	in := make([]rt.Value, 0, len(leaves))
	i := 0
	next := func() (rt.Leaf, bool) {
		if i >= len(leaves) {
			return rt.Leaf{}, false
		}
		i++
		return leaves[i-1], true
	}
	for _, v := range seed {
		l, ok := next()
		if !ok {
			return nil, false
		}
		switch v := v.(type) {
		case bool:
			if l.K != rt.KBool {
				return nil, false
			}
			in = append(in, rt.Value{Bits: boolBits(v)})
		case int64:
			if !l.K.Integer() || l.IsLen || l.Float {
				return nil, false
			}
			in = append(in, rt.Value{Bits: truncate(l.K, uint64(v))})
		case float64:
			switch {
			case l.Float && l.K == rt.KUint32:
				in = append(in, rt.Value{Bits: uint64(math.Float32bits(float32(v)))})
			case l.Float:
				in = append(in, rt.Value{Bits: math.Float64bits(v)})
			default:
				return nil, false
			}
		case uint64:
			if !l.K.Integer() || l.IsLen || l.Float {
				return nil, false
			}
			in = append(in, rt.Value{Bits: truncate(l.K, v)})
		case string:
			if l.K != rt.KString || len(v) > l.Max {
				return nil, false
			}
			in = append(in, rt.Value{Str: v})
		case []byte:
			if !l.IsLen || len(v) > l.Max {
				return nil, false
			}
			in = append(in, rt.Value{Bits: uint64(len(v))})
			for j := 0; j < l.Max; j++ {
				el, ok := next()
				if !ok || el.K != rt.KUint8 {
					return nil, false
				}
				var b byte
				if j < len(v) {
					b = v[j]
				}
				in = append(in, rt.Value{Bits: uint64(b)})
			}
		default:
			return nil, false
		}
	}
	if len(in) != len(leaves) {
		return nil, false
	}
	return in, true
}

func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// truncate keeps the low bits of v that kind k has.
func truncate(k rt.Kind, v uint64) uint64 {
	if b := k.Bits(); b > 0 && b < 64 {
		return v & (1<<uint(b) - 1)
	}
	return v
}

// moreInputs reports whether condition a mentions an input b does not.
// With a larger condition, it is the sign that a run brought new symbolic
// detail into a branch's condition (a model refined from run to run).
func moreInputs(a, b *sym.Expr) bool {
	old := map[int]bool{}
	for _, v := range b.Vars() {
		old[v] = true
	}
	for _, v := range a.Vars() {
		if !old[v] {
			return true
		}
	}
	return false
}
