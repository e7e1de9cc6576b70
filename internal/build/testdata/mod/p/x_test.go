package p_test

import (
	"testing"

	"example.com/mod/p"
)

func PutAbsX(t *testing.T, x int8) { _ = p.Abs(int(x)) }

func FuzzAbs(f *testing.F) {
	f.Fuzz(func(t *testing.T, x int) { _ = p.Abs(x) })
}
