//go:build linux || darwin

package fz

import "testing"

func FuzzParse(f *testing.F) {
	f.Add([]byte("seed"), "s", 1, uint8(2), int32(3), true, int64(4), uint64(5))
	f.Fuzz(func(t *testing.T, data []byte, s string, n int, u8 uint8, r int32, ok bool, i64 int64, u64 uint64) {
		if n == 42 {
			t.Fatal("n is 42")
		}
	})
}

func FuzzSmall(f *testing.F) {
	f.Fuzz(func(t *testing.T, x int8, y int16, z uint16, w uint32, u uint) {})
}

func FuzzNamed(f *testing.F) {
	f.Fuzz(func(t *testing.T, s Small) {})
}
