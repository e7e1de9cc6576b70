package a

import (
	"context"
	"io"
	"testing"
)

func PutInts(t *testing.T, a int, b int8, c uint64, d uintptr, k Kind, ok bool) {}

func PutStrings(t *testing.T, s string, bs []byte, arr [3]int, xs [][]uint16) {}

func PutStruct(t *testing.T, p Pair, ps []Pair, h Hidden) {}

func Put(t *testing.T) {}

func PutPointer(t *testing.T, p *int) {}

func PutList(t *testing.T, l *List, err error, ctx context.Context, w io.Writer) {}

func PutBinary(t *testing.T, n *Node) {}

func PutMap(t *testing.T, m map[[2]float64]int) {}

func PutFloat(t *testing.T, f float64) {}

func PutFunc(t *testing.T, f func()) {}

func PutIface(t *testing.T, x any) {}

func PutChan(t *testing.T, c chan int) {}

func PutNested(t *testing.T, n struct{ M map[int]int }) {}

func PutRecursive(t *testing.T, tr Tree) {}

func PutVariadic(t *testing.T, xs ...int) {}

func PutGeneric[T any](t *testing.T, x int) {}

// Not targets.
func Putter(t *testing.T, x int) {}
func PutNoT(x int)               {}
func PutB(b *testing.B, x int)   {}

type S struct{}

func (S) PutMethod(t *testing.T, x int) {}

func FuzzLit(f *testing.F) {
	f.Add(1, "x", []byte("yz"), true, uint8(7))
	f.Add(2, "", []byte(nil), false, uint8(0))
	f.Fuzz(func(t *testing.T, n int, s string, b []byte, ok bool, u uint8) {
		_ = Abs(n)
	})
}

func fuzzBody(t *testing.T, x int16) {}

func FuzzNamed(f *testing.F) {
	f.Fuzz(fuzzBody)
}

func FuzzVar(f *testing.F) {
	g := func(t *testing.T, x int) {}
	f.Fuzz(g)
}

func FuzzFloat(f *testing.F) {
	f.Fuzz(func(t *testing.T, x float32) {})
}

func FuzzNone(f *testing.F) {}

func TestAbs(t *testing.T) {}
