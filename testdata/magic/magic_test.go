package magic

import "testing"

// The fuzz targets fail when they reach the magic branch, so that a fuzzer
// reports the time it took to get there.

func FuzzSeed(f *testing.F) {
	f.Fuzz(func(t *testing.T, x uint32) {
		if Seed(x) {
			t.Fatalf("magic seed %#x", x)
		}
	})
}

func FuzzOverflows(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, b uint64) {
		if Overflows(a, b) {
			t.Fatalf("%d + %d overflows", a, b)
		}
	})
}

func FuzzWord(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if Word(s) {
			t.Fatalf("magic word %q", s)
		}
	})
}

func FuzzHeader(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if n := Header(b); n > 0 {
			t.Fatalf("header with %d payload bytes", n)
		}
	})
}

func FuzzChecksum(f *testing.F) {
	f.Fuzz(func(t *testing.T, b0, b1, b2 byte) {
		if Checksum(b0, b1, b2) {
			t.Fatalf("checksum %#x+%#x == %#x", b0, b1, b2)
		}
	})
}
