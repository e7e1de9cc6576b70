// Package ring keeps the last few values added, calling a hook on each
// value it drops.
package ring

// Ring holds at most its capacity of values.
type Ring struct {
	vals   []int
	size   int
	OnDrop func(v int) // called with each dropped value
}

// New returns a ring of capacity n (at least 1).
func New(n int) *Ring {
	if n < 1 {
		n = 1
	}
	return &Ring{size: n}
}

// Add appends v, dropping the oldest value when the ring is full.
func (r *Ring) Add(v int) {
	if len(r.vals) == r.size {
		old := r.vals[0]
		r.vals = r.vals[1:]
		if r.OnDrop != nil {
			r.OnDrop(old)
		}
	}
	r.vals = append(r.vals, v)
}

// Len returns the number of values held.
func (r *Ring) Len() int {
	return len(r.vals)
}
