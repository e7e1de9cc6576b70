package shard

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Spec
		ok   bool
	}{
		{"0/1", Spec{0, 1}, true},
		{"2/4", Spec{2, 4}, true},
		{"-1/4", Spec{}, false},
		{"4/4", Spec{}, false},
		{"4", Spec{}, false},
		{"a/b", Spec{}, false},
		{"1/0", Spec{}, false},
	} {
		got, err := Parse(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestAssign(t *testing.T) {
	units := []Unit{{"a", 1}, {"b", 10}, {"c", 4}, {"d", 4}, {"e", 0}, {"f", 3}}
	got := Assign(units, 2)
	// Most targets first, to the lighter shard: b (10) → 0; c (4) → 1;
	// d (4) → 1 (8); f (3) → 1 (11); a (1) → 0 (11); e (0, costs 1) → 0,
	// the first of two equal shards.
	want := []int{0, 0, 1, 1, 0, 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Assign = %v, want %v", got, want)
	}
	// Every unit in exactly one shard, whatever the count; one shard takes all.
	for n := 1; n <= 7; n++ {
		for i, s := range Assign(units, n) {
			if s < 0 || s >= n {
				t.Errorf("Assign(%d): unit %d in shard %d", n, i, s)
			}
		}
	}
	if got := Assign(units, 1); !reflect.DeepEqual(got, []int{0, 0, 0, 0, 0, 0}) {
		t.Errorf("Assign(1) = %v", got)
	}
	// The same input gives the same assignment (no map order, no time).
	if a, b := Assign(units, 3), Assign(units, 3); !reflect.DeepEqual(a, b) {
		t.Errorf("Assign not deterministic: %v, %v", a, b)
	}
}
