// Package ring keeps the last few samples of a signal.
package ring

// Ring holds the last samples pushed, oldest first.
type Ring struct {
	buf  []int
	next int
}

// New returns a ring of n samples, all 0.
func New(n int) *Ring { return &Ring{buf: make([]int, n)} }

// Push adds v, dropping the oldest sample.
func (r *Ring) Push(v int) {
	r.buf[r.next] = v
	r.next = (r.next + 1) % len(r.buf)
}

// Reset sets every sample back to 0.
func (r *Ring) Reset() { clear(r.buf) }

// Sum is the sum of the samples.
func (r *Ring) Sum() int {
	s := 0
	for _, v := range r.buf {
		s += v
	}
	return s
}
