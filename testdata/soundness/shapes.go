// Package soundness holds code shapes whose symbolic values once went
// missing: captured variables of closures, callbacks run by library code,
// method values, deferred closures and generic functions and types. Every
// PUT of this package fails on exactly one kind of input; an explorer that
// loses a shadow on the way either misses it or must not call the target
// exhaustive.
package soundness

import (
	"errors"
	"sort"
	"sync"
)

// Code is a small checker: its result depends on the input through a
// closure that captures it.
func Code(n int) bool {
	is := func(k int) bool { return n == k }
	return is(42)
}

// Counter returns a closure that keeps a symbolic sum across calls.
func Counter(start int) func(int) int {
	sum := start
	return func(d int) int {
		sum += d
		return sum
	}
}

// Once runs its check inside sync.Once: the callback is run by library
// code, the captured input reaches it only through the closure.
func Once(n uint8) (hit bool) {
	var once sync.Once
	once.Do(func() {
		if n == 200 {
			hit = true
		}
	})
	return hit
}

// Rank sorts a copy of xs with a comparison that captures a pivot and
// reports whether the pivot came first.
func Rank(xs []int, pivot int) bool {
	ys := append([]int(nil), xs...)
	sort.Slice(ys, func(i, j int) bool { return ys[i] < ys[j] })
	return len(ys) > 0 && ys[0] == pivot
}

// Gauge holds a limit; Over is used as a method value.
type Gauge struct{ Limit int }

// Over reports whether v exceeds the limit.
func (g Gauge) Over(v int) bool { return v > g.Limit }

// Under reports whether v is below the limit; used as a method value
// whose receiver is a pointer.
func (g *Gauge) Under(v int) bool { return v < g.Limit }

// Recovered panics on a magic value and recovers in a deferred closure
// that reads the input.
func Recovered(n int) (code int) {
	defer func() {
		if recover() != nil && n == 7 {
			code = 99
		}
	}()
	if n%7 == 0 {
		panic("multiple of seven")
	}
	return n
}

// Max is a generic helper.
func Max[T int | int64 | uint8 | string](a, b T) T {
	if a > b {
		return a
	}
	return b
}

// LeadingDigits counts the leading decimal digits of s, a string or a
// byte slice (the shape of time's leadingInt).
func LeadingDigits[S []byte | string](s S) int {
	i := 0
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			break
		}
	}
	return i
}

// Stack is a generic type.
type Stack[T any] struct{ items []T }

// Push adds v on top.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

// Pop removes the top value.
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

// Word is the i-th word.
func Word(words []string, i int) string { return words[i] }

// Pop removes and returns the last item.
func Pop(items *[]int) (int, bool) {
	s := *items
	if len(s) == 0 {
		return 0, false
	}
	x := s[len(s)-1]
	*items = s[:len(s)-1]
	return x, true
}

// Slot is an element of a table that holds pointers and structs.
type Slot struct {
	Name string
	Next *Slot
}

// Table is a fixed table: its second-to-last slot is the only one set.
func Table() []*Slot { return []*Slot{nil, nil, {Name: "set"}, nil} }

// Names is a table of structs; only one name is two bytes long.
func Names() []Slot { return []Slot{{Name: "a"}, {Name: "b"}, {Name: "zz"}} }

// Bump adds one to the element at p.
func Bump(p *int) { *p++ }

// Tags returns the first byte of each record of msg, a sequence of
// length-prefixed records (a length byte, then that many bytes), as
// binary formats chain them: where a record starts depends on the lengths
// read before it.
func Tags(msg []byte) ([]byte, bool) {
	var tags []byte
	for off := 0; off < len(msg); {
		n := int(msg[off])
		end := off + 1 + n
		if n == 0 || end > len(msg) {
			return nil, false
		}
		tags = append(tags, msg[off+1])
		off = end
	}
	return tags, true
}

// TagsIn is Tags over a string, written with a remaining-length test.
func TagsIn(msg string) ([]byte, bool) {
	tags := []byte{}
	pos := 0
	for pos != len(msg) {
		size := int(msg[pos])
		if size == 0 || len(msg)-pos <= size {
			return nil, false
		}
		tags = append(tags, msg[pos+1])
		pos += size + 1
	}
	return tags, true
}

// Frame returns a 200-byte frame that holds msg from offset 120 on.
func Frame(msg []byte) []byte {
	f := make([]byte, 200)
	copy(f[120:], msg)
	return f
}

// Header is the fixed part of a record, returned by value with an error.
type Header struct {
	Kind uint16
	Size uint8
}

// Record holds a parsed header and what follows it.
type Record struct {
	Header Header
	Rest   []byte
}

// ParseHeader reads a header from b: a struct result beside an error.
func ParseHeader(b []byte) (Header, int, error) {
	if len(b) < 3 {
		return Header{}, 0, errShort
	}
	return Header{Kind: uint16(b[0])<<8 | uint16(b[1]), Size: b[2]}, 3, nil
}

var errShort = errors.New("short")

// ParseRecord assigns the struct result of a call with several results
// to a field, then passes the record's header by value: dnsmessage's
// resource parser does both.
func ParseRecord(b []byte) (Record, error) {
	var r Record
	var n int
	var err error
	r.Header, n, err = ParseHeader(b)
	if err != nil {
		return r, err
	}
	r.Rest = b[n:]
	return r, nil
}

// KindName names a header's kind.
func KindName(h Header) string {
	switch h.Kind {
	case 1:
		return "A"
	case 0x41:
		return "HTTPS"
	}
	return "?"
}

// ForwardHeader returns ParseHeader's results as they are.
func ForwardHeader(b []byte) (Header, int, error) { return ParseHeader(b) }

// Reader keeps the last header it read in a field.
type Reader struct{ last Header }

// Read parses a header into r's field.
func (r *Reader) Read(b []byte) error {
	var err error
	r.last, _, err = ParseHeader(b)
	return err
}

// Last returns the last header read.
func (r *Reader) Last() Header { return r.last }

// Label reads a length-prefixed label, as DNS character strings are:
// the string is converted from a slice whose length is a byte of the
// input.
func Label(b []byte) (string, bool) {
	if len(b) == 0 || 1+int(b[0]) > len(b) {
		return "", false
	}
	return string(b[1 : 1+int(b[0])]), true
}

// IsOK reports whether s is "ok".
func IsOK(s string) bool { return s == "ok" }

// Quote wraps s in a prefix and a suffix: a concatenation returned.
func Quote(s string) string { return "<<" + s + ">>" }

// Relay passes a header through a buffered channel within one goroutine.
func Relay(h Header) Header {
	c := make(chan Header, 1)
	c <- h
	return <-c
}

// Index holds headers built in composite literals whose element types
// are elided.
type Index struct {
	Rows   []*Header
	ByName map[string]Header
	Refs   map[string]*Header
	Raw    map[string][]byte
}

// NewIndex builds an index around one header of the given kind.
func NewIndex(kind uint16, raw []byte) Index {
	return Index{
		Rows:   []*Header{{Kind: kind}},
		ByName: map[string]Header{"h": {Kind: kind}},
		Refs:   map[string]*Header{"h": {Kind: kind}},
		Raw:    map[string][]byte{"h": raw},
	}
}

// Rows builds a slice of one header of the given kind with an elided
// &Header{}.
func Rows(kind uint16) []*Header { return []*Header{{Kind: kind}} }

// Fixed copies b into a four-byte array and reports how many bytes it
// copied.
func Fixed(b []byte) ([4]byte, int) {
	var a [4]byte
	n := copy(a[:], b)
	return a, n
}

// Boxed returns the header of b as an interface value.
func Boxed(b []byte) any {
	var x any = First(b)
	return x
}

// First is the header at the start of b, or the zero header.
func First(b []byte) Header {
	h, _, _ := ParseHeader(b)
	return h
}

// Patched sets the size of its named result in a deferred function, after
// the return statement gave it its value.
func Patched(size uint8) (h Header) {
	defer func() { h.Size = size }()
	return Header{Kind: 1}
}
