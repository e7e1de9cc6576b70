package solver

import (
	"fmt"

	"github.com/dowse-go/dowse/rt"
)

// inDomain checks that vals fits the leaves: one value per leaf, lengths
// in 0..Max, strings of at most Max bytes.
func inDomain(leaves []rt.Leaf, vals []rt.Value) error {
	if len(vals) != len(leaves) {
		return fmt.Errorf("%d values for %d leaves", len(vals), len(leaves))
	}
	for i, l := range leaves {
		v := vals[i]
		switch {
		case l.K == rt.KString && len(v.Str) > max(l.Max, 0):
			return fmt.Errorf("%s: %d bytes, at most %d allowed", l.Path, len(v.Str), l.Max)
		case l.IsLen && lengthOf(l.K, v.Bits) > int64(max(l.Max, 0)):
			return fmt.Errorf("%s: length %#x outside 0..%d", l.Path, v.Bits, l.Max)
		}
	}
	return nil
}

// lengthOf reads a length leaf's bits; a negative or huge value maps to
// MaxInt64 so that it fails every bound.
func lengthOf(k rt.Kind, bits uint64) int64 {
	w := uint(k.Bits())
	if w < 64 {
		bits &= 1<<w - 1
		if k.Signed() && bits>>(w-1) == 1 {
			return 1<<63 - 1
		}
	}
	if bits > 1<<62 {
		return 1<<63 - 1
	}
	return int64(bits)
}
