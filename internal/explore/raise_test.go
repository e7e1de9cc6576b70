package explore

import (
	"slices"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

func TestTranslate(t *testing.T) {
	from := []rt.Leaf{
		{Path: "s", K: rt.KString, Max: 10},
		{Path: "len(b)", K: rt.KInt, IsLen: true, Max: 2},
		{Path: "b[0]", K: rt.KUint8},
		{Path: "b[1]", K: rt.KUint8},
	}
	to := []rt.Leaf{
		{Path: "s", K: rt.KString, Max: 4},
		{Path: "len(b)", K: rt.KInt, IsLen: true, Max: 3},
		{Path: "b[0]", K: rt.KUint8},
		{Path: "b[1]", K: rt.KUint8},
		{Path: "b[2]", K: rt.KUint8},
	}
	in := []rt.Value{{Str: "abcdefgh"}, {Bits: 2}, {Bits: 7}, {Bits: 9}}
	want := []rt.Value{{Str: "abcd"}, {Bits: 2}, {Bits: 7}, {Bits: 9}, {}}
	if got := translate(from, to, in); !slices.Equal(got, want) {
		t.Errorf("translate = %v, want %v (by path, strings cut to the bound, new leaves zero)", got, want)
	}
	in[1].Bits = 40 // a length beyond the new bound is clipped
	if got := translate(from, to, in); got[1].Bits != 3 {
		t.Errorf("len(b) = %d, want 3", got[1].Bits)
	}
}

func TestRaisedBound(t *testing.T) {
	limited := []BoundLimited{{Need: 12}}
	for _, c := range []struct {
		name   string
		rep    Report
		maxLen int
		plenty bool
		want   int
	}{
		{"a branch needs 12: the relaxed bound searched", Report{BoundLimited: limited}, 10, false, 42},
		{"a branch needs more than the relaxed bound", Report{BoundLimited: []BoundLimited{{Need: 50}}}, 10, false, 50},
		{"relaxed bound beyond the cap", Report{BoundLimited: limited}, 40, false, 64},
		{"capped", Report{BoundLimited: []BoundLimited{{Need: 300}}}, 10, false, 64},
		{"at the cap", Report{BoundLimited: limited}, 64, false, 0},
		{"time ran out", Report{BoundLimited: limited, StopReason: ReasonMaxTime}, 10, false, 0},
		{"nothing needs longer inputs", Report{}, 10, true, 0},
		{"reached outcomes, plenty of time", Report{Longer: limited}, 10, true, 42},
		{"reached outcomes, little time", Report{Longer: limited}, 10, false, 0},
	} {
		if got := raisedBound(&c.rep, c.maxLen, 64, c.plenty); got != c.want {
			t.Errorf("%s: raisedBound = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestSeedsNeed(t *testing.T) {
	seeds := [][]any{{"abc", int64(1)}, {[]byte("0123456789ab")}, {string(make([]byte, 100))}}
	if got := seedsNeed(seeds, 64); got != 12 {
		t.Errorf("seedsNeed = %d, want 12 (the longest seed within the cap)", got)
	}
}
