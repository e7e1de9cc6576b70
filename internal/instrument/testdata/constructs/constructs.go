// Package constructs exercises the Go constructs the instrumenter rewrites;
// its tests must give the same results plain and instrumented.
package constructs

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"sort"
	"strings"
)

// Number is a type-set constraint for the generic functions.
type Number interface {
	~int | ~int8 | ~int64 | ~uint8 | ~float64
}

// Sum adds the elements of xs (generic).
func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// Pair is a generic struct.
type Pair[K comparable, V any] struct {
	Key K
	Val V
}

// Swap returns p with key and value exchanged.
func Swap[K, V comparable](p Pair[K, V]) Pair[V, K] { return Pair[V, K]{p.Val, p.Key} }

// Safe runs f and turns a panic into an error (defer/recover).
func Safe(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	f()
	return nil
}

// Collatz counts steps with goto.
func Collatz(n int) int {
	steps := 0
loop:
	if n <= 1 {
		return steps
	}
	steps++
	if n%2 == 0 {
		n /= 2
	} else {
		n = 3*n + 1
	}
	goto loop
}

// Digits counts the leading ASCII digits of s and the rest's length: a
// goto jumps forward to a labeled if with an init statement (a call), and
// back to it.
func Digits(s string) (digits, rest int) {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			goto tail
		}
		digits++
	}
	return digits, 0
tail:
	if n := len(strings.TrimSpace(s[digits:])); n > 0 {
		rest += n
		if rest < 2*n {
			goto tail
		}
	}
	return digits, rest
}

// Grid finds the first pair (i, j) with i*j == target, using labels.
func Grid(target int) (int, int) {
outer:
	for i := 1; i < 10; i++ {
		for j := 1; j < 10; j++ {
			switch {
			case i*j == target:
				return i, j
			case i*j > target:
				continue outer
			case j == 9 && i == 9:
				break outer
			}
		}
	}
	return -1, -1
}

// Grade uses switch with fallthrough and multiple case values.
func Grade(score int) string {
	var b strings.Builder
	switch s := score / 10; s {
	case 10, 9:
		b.WriteString("A")
		fallthrough
	case 8:
		b.WriteString("B")
	case 7, 6:
		b.WriteString("C")
	default:
		b.WriteString("F")
	}
	return b.String()
}

// Describe uses a type switch.
func Describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int:
		return fmt.Sprint("int ", x+1)
	case string, []byte:
		return fmt.Sprintf("text %v", x)
	case error:
		return "error " + x.Error()
	}
	return "other"
}

// Counter is a type with value and pointer methods.
type Counter struct {
	n    int
	hist [4]int
}

// Inc increments and records the value.
func (c *Counter) Inc() int {
	c.n++
	c.hist[c.n%len(c.hist)] = c.n
	return c.n
}

// Peek is a value method.
func (c Counter) Peek() int { return c.n }

// Apply calls f on every element (closures, method values, variadic).
func Apply(f func(int) int, xs ...int) []int {
	out := make([]int, 0, len(xs))
	for i := range xs {
		out = append(out, f(xs[i]))
	}
	return out
}

// Runes counts runes and bytes of s (range over string).
func Runes(s string) (runes, bytes int, last rune) {
	for i, r := range s {
		runes++
		bytes = i
		last = r
	}
	return
}

// Keys returns the sorted keys of m (range over a map).
func Keys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Evens yields the even numbers below n (range over a function).
func Evens(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if i%2 == 0 && !yield(i) {
				return
			}
		}
	}
}

// Shadow shadows predeclared names.
func Shadow(xs []int) int {
	len := 0
	for range xs {
		len++
	}
	string := "x"
	_ = string
	return len
}

// Copies moves values between arrays, structs and slices.
func Copies() (int, error) {
	a := [3]int{1, 2, 3}
	b := a
	b[0] = 10
	s := []int{4, 5, 6}
	n := copy(s, a[1:])
	p := Pair[string, [2]int]{"k", [2]int{7, 8}}
	q := p
	q.Val[1] = 9
	if a[0] != 1 || b[0] != 10 || s[0] != 2 || n != 2 || p.Val[1] != 8 || q.Val[1] != 9 {
		return 0, errors.New("copy semantics broken")
	}
	return a[0] + b[0] + s[0] + p.Val[1] + q.Val[1], nil
}

// Divide panics on a zero divisor and reports the index of a bad slot.
func Divide(xs []int, d int, i int) int { return xs[i] / d }

// Evaluation order: calls left to right, operands after calls.
func Order() string {
	var log []string
	f := func(s string, v int) int { log = append(log, s); return v }
	x := 1
	y := f("a", 1) + x*f("b", 2) - f("c", 3)
	m := map[int]int{f("k", 1): f("v", 2)}
	arr := []int{f("e0", 0), f("e1", 1)}
	arr[f("i", 0)], x = f("r1", 5), f("r2", 6)
	return fmt.Sprint(strings.Join(log, ","), y, m, arr, x)
}

// ShortCircuit records which operands of && and || run, with calls on
// their right.
func ShortCircuit(a, b int) string {
	var log []string
	f := func(name string, v bool) bool { log = append(log, name); return v }
	if f("x", a > 0) && f("y", b > 0) || f("z", a == b) {
		log = append(log, "then")
	} else if !(f("p", a < 0) || f("q", b < 0)) && f("r", a+b == 0) {
		log = append(log, "elif")
	}
	return strings.Join(log, ",")
}

// Line returns the line of the statement that called it.
func Line() int {
	_, _, line, _ := runtime.Caller(1)
	return line
}

// Bump adds 2 to n through pointers to it.
func Bump(n int) int {
	inc(&n)
	inc(&n)
	return n
}

func inc(p *int) { *p++ }

// Maps exercises the map model's rewrites: keys converted to an interface
// key type, constant keys of a narrower type, literals with variables,
// op-assignment, comma-ok reads, deletes, and ranges that delete and add
// while they iterate.
func Maps(a, b int, s string) string {
	seen := map[any]bool{}
	seen[s] = true
	seen[a] = true
	_, hasS := seen[s]
	narrow := map[int32]string{}
	narrow[1] = "one"
	narrow[2] = narrow[1] + "two"
	counts := map[string]int{s: a, "x": b}
	counts[s] += 3
	counts["y"]++
	delete(counts, "x")
	if v, ok := counts[s]; ok && v > 100 {
		counts["big"] = v
	}
	total, visits := 0, 0
	for k, v := range counts {
		visits++
		total += v
		delete(counts, "y")
		if k == s {
			counts[k+"!"] = 0 // may or may not be visited; adds nothing to total
		}
	}
	keys := 0
	for range narrow {
		keys++
	}
	var nilMap map[string]int
	for range nilMap {
		keys += 100
	}
	return fmt.Sprintf("%v %v %v %v %v %v %v", hasS, len(seen), narrow[2], len(counts) > 0, keys, visits > 0, total >= a)
}

type point struct{ X, Y int }

func mkPoint(x int) point { return point{X: x, Y: -x} }

// StructsInMaps stores structs in a map from a literal and from a call's
// result (a map element has no address to copy shadows to).
func StructsInMaps(x int) int {
	m := map[string]point{}
	m["lit"] = point{X: x}
	m["call"] = mkPoint(x)
	return m["lit"].X + m["call"].Y
}

// Channels receives from channels in every form the rewrite handles.
func Channels(n int) []int {
	c := make(chan int, 16)
	for i := 0; i < n; i++ {
		c <- i
	}
	close(c)
	var out []int
	first, ok := <-c
	out = append(out, first, len(c), cap(c))
	if !ok {
		return out
	}
	<-c
	pair := <-c + <-c
	out = append(out, pair)
	var last int
outer:
	for v := range c {
		switch {
		case v%2 == 0:
			continue outer
		case v > 11:
			break outer
		}
		out = append(out, v)
	}
	for last = range c {
	}
	for range c {
		out = append(out, -1)
	}
	v, ok := <-c
	out = append(out, last, v, len(c))
	if ok {
		out = append(out, -2)
	}
	return out
}

type cell struct {
	row, col int
	_        int
	tag      string
}

type cellNames map[cell]string

func mkCell(r int) cell { return cell{row: r, col: r + 1} }

// StructKeys exercises maps with keys of struct, array, pointer and
// interface types: literals with elided keys built of variables (of a map
// type written out and of a named one), stores, op-assignment, comma-ok
// reads and deletes through keys that are literals, variables, call
// results and fields, and ranges over such maps.
func StructKeys(a, b int, s string) string {
	m := map[cell]int{{a, b, 0, s}: 1, {row: b, col: a}: 2}
	named := cellNames{{a, b, 0, s}: "x"}
	m[cell{row: a}] += 3
	m[mkCell(a)]++
	k := cell{row: b, col: a, tag: s}
	m[k] = len(s)
	v, ok := m[cell{a, b, 7, s}]
	delete(m, cell{row: b, col: a})
	grid := map[[2]int]bool{{a, b}: true}
	grid[[2]int{b, a}] = a > b
	var p, q = new(int), new(int)
	ptrs := map[*int]int{p: a}
	ptrs[q] += b
	ifs := map[any]int{s: a}
	ifs[a] = b
	holder := struct{ key cell }{key: k}
	_, held := m[holder.key]
	sum := 0
	for c, n := range m {
		sum += c.row + n
	}
	return fmt.Sprintf("%v %v %v %v %v %v %v %v %v %v", v, ok, len(m), named[cell{a, b, 0, s}], grid[[2]int{a, b}], len(grid), ptrs[p]+ptrs[q], ifs[s]+ifs[a], held, sum)
}

// MinMax uses the builtins min and max on integers of several kinds,
// constants and strings.
func MinMax(a, b int, c int8, u uint16, s, t string) string {
	lo, hi := min(a, b), max(a, b, 7)
	cc := max(c, -3)
	uu := min(u, 40000, u+1)
	first := min(s, t, "m")
	last := max(s, t)
	var f float64 = min(1.5, float64(a))
	return fmt.Sprintf("%v %v %v %v %q %q %v", lo, hi, cc, uu, first, last, f)
}

// Clear clears slices of integers, strings and structs, and a map.
func Clear(a int, s string) string {
	ns := []int{a, 0, a + 1}
	ss := []string{s, ""}
	ps := []point{{X: a}, {Y: a}}
	m := map[int]int{a: 1, a + 1: 2}
	clear(ns)
	clear(ss[:1])
	clear(ps)
	clear(m)
	m[a] = 3
	return fmt.Sprint(ns, len(ss[0]), ps, len(m), m[a])
}
