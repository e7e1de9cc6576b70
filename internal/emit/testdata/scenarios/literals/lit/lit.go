package lit

import (
	"example.com/a/units"
	bunits "example.com/b/units"
)

type Kind uint8

const (
	KindNone Kind = iota
	KindA
	KindB
	KindAlias = KindB
)

type Mode string

const ModeFast Mode = "fast"

type Point struct {
	X, Y  int
	label string
	_     int
}

type Inner struct{ N int16 }

type Outer struct {
	Inner
	Tags  []string
	Grid  [2][2]int8
	Meter units.Meter
}

type Raw []byte

type Celsius = bunits.Temp

// os clashes with the import of package os in generated files.
func os() {}
