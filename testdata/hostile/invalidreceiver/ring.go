// Package ring is a fixed-size ring of ints with cursors over it.
package ring

// Ring holds the last values added.
type Ring struct {
	vals []int
	next int
	full bool
}

// New returns a ring of n values.
func New(n int) *Ring {
	if n < 1 {
		n = 1
	}
	return &Ring{vals: make([]int, n)}
}

// Add adds v, dropping the oldest value when the ring is full.
func (r *Ring) Add(v int) {
	r.vals[r.next] = v
	r.next++
	if r.next == len(r.vals) {
		r.next, r.full = 0, true
	}
}

// Len is the number of values held.
func (r *Ring) Len() int {
	if r.full {
		return len(r.vals)
	}
	return r.next
}

// Cursor returns a cursor before the oldest value of r.
func (r *Ring) Cursor() Cursor {
	return Cursor{ring: r, pos: -1}
}

// Cursor walks the values of a ring, oldest first.
type Cursor struct {
	ring *Ring
	pos  int
}

// Next moves to the next value and reports whether there is one.
func (c *Cursor) Next() bool {
	if c.pos < c.ring.Len() {
		c.pos++
	}
	return c.pos < c.ring.Len()
}

// Value is the value at the cursor.
func (c *Cursor) Value() int {
	start := 0
	if c.ring.full {
		start = c.ring.next
	}
	return c.ring.vals[(start+c.pos)%len(c.ring.vals)]
}

// Entry is a value of a ring and its position, as Entries yields them.
type Entry struct {
	ring *Ring
	pos  int
}

// Entries calls yield with each value held, oldest first, until it
// returns false.
func (r *Ring) Entries(yield func(Entry) bool) {
	for c := r.Cursor(); c.Next(); {
		if !yield(Entry{ring: r, pos: c.pos}) {
			return
		}
	}
}

// Value is the entry's value.
func (e *Entry) Value() int {
	return e.ring.vals[e.pos]
}

// Skip moves the entry n positions on, within its ring.
func (e *Entry) Skip(n int) {
	e.pos = (e.pos + n) % len(e.ring.vals)
}
