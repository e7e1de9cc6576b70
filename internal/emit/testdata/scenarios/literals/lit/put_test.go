package lit

import (
	"io"
	"testing"

	"example.com/a/units"
	bunits "example.com/b/units"
)

func PutInts(t *testing.T, a int, b int8, c int16, d int32, e int64, f uint, g uint8, h uint16, i uint32, j uint64, k uintptr) {
}

func PutText(t *testing.T, s string, r rune, by byte, ok bool, raw []byte, named Raw) {}

func PutNamed(t *testing.T, k Kind, m Mode, c Celsius, m2 units.Meter, ks []Kind, temp bunits.Temp) {}

func PutComposite(t *testing.T, p Point, o Outer, arr [3]string, nested [][]int) {}

func PutVariadic(t *testing.T, prefix string, xs ...uint64) {}

func PutNoInputs(t *testing.T) {}

func PutBlank(t *testing.T, _ int, name string) {
	if name == "boom" {
		t.Fatal("boom")
	}
}

func PutReader(t *testing.T, r io.Reader, n int) {}

func PutChans(t *testing.T, in <-chan int, out chan<- string, kinds chan Kind) {}

func PutFloats(t *testing.T, f float64, g float32, xs []float64) {}
