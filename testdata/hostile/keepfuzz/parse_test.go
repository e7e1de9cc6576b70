package keepfuzz

import "testing"

func FuzzField(f *testing.F) {
	f.Fuzz(func(t *testing.T, line string, n int) {
		_ = Field(line, n)
	})
}
