package constructs

// Values converted to interfaces and back: assignments, method calls
// through the interface, comma-ok and plain assertions, type switches.

// Mover moves a position.
type Mover interface {
	Move(d int) Pos
}

// Pos is a position on a line with a tag.
type Pos struct {
	X   int
	Tag string
}

// Move returns the position moved by d.
func (p Pos) Move(d int) Pos { p.X += d; return p }

// Big is a value the runtime does not store in the interface itself.
type Big [3]int64

// Move moves every element.
func (b Big) Move(d int) Pos { return Pos{X: int(b[0]+b[1]+b[2]) + d} }

// Small holds one pointer, stored in the interface's data word itself.
type Small struct{ p *int }

// Move moves by the pointee.
func (s Small) Move(d int) Pos { return Pos{X: *s.p + d} }

// Boxed converts values to interfaces and reads them back.
func Boxed(x int, s string) (int, string) {
	var m Mover = Pos{x, s}
	p := m.Move(1)
	m = p
	q, ok := m.(Pos)
	if !ok {
		return -1, ""
	}
	r := m.(Pos)
	var a any = r
	r.X = 100 // the interface holds a copy
	sum := 0
	for _, v := range []Mover{m, Big{int64(x), 2, 3}, Small{&x}} {
		sum += v.Move(x).X
	}
	switch v := a.(type) {
	case Pos:
		sum += v.X
		v.X = 0
	case Big:
		sum -= int(v[0])
	}
	var small Mover = Small{&sum}
	if sm, ok := small.(Small); ok {
		sum += *sm.p
	}
	var e error = errorValue{code: x}
	if ev, ok := e.(errorValue); ok && ev.code == x {
		sum++
	}
	return sum + q.X + a.(Pos).X, q.Tag
}

type errorValue struct{ code int }

func (e errorValue) Error() string { return "error" }
