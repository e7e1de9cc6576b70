// Package shapes has functions whose inputs are pointers, recursive
// types and standard interfaces: the input model's test bed.
package shapes

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// Point is a point of the plane.
type Point struct{ X, Y int }

// Quadrant returns the quadrant (1 to 4) of p, 0 for nil or a point on
// an axis.
func Quadrant(p *Point) int {
	switch {
	case p == nil || p.X == 0 || p.Y == 0:
		return 0
	case p.X > 0 && p.Y > 0:
		return 1
	case p.X < 0 && p.Y > 0:
		return 2
	case p.X < 0:
		return 3
	}
	return 4
}

// Node is a node of a singly linked list.
type Node struct {
	Val  int
	Next *Node
}

// Sum adds the values of the list.
func Sum(n *Node) int {
	s := 0
	for ; n != nil; n = n.Next {
		s += n.Val
	}
	return s
}

// Len is the length of the list.
func Len(n *Node) int {
	k := 0
	for ; n != nil; n = n.Next {
		k++
	}
	return k
}

// Report writes x to w unless ctx is done, and says what happened with
// err.
func Report(ctx context.Context, w io.Writer, err error, x int) string {
	if ctx.Err() != nil {
		return "canceled"
	}
	fmt.Fprint(w, x)
	if err != nil {
		return "failed: " + err.Error()
	}
	return "ok"
}

// Retry calls op until it succeeds, at most n times, and returns the
// number of calls it made.
func Retry(n int, op func() error) (int, error) {
	for i := 1; i <= n; i++ {
		if err := op(); err == nil {
			return i, nil
		}
	}
	return n, errors.New("gave up")
}

// Count is the number of elements of xs for which keep holds.
func Count(xs []int, keep func(int) bool) int {
	k := 0
	for _, x := range xs {
		if keep(x) {
			k++
		}
	}
	return k
}

// Describe names the dynamic type of v.
func Describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int:
		if x > 10 {
			return "big int"
		}
		return "int"
	case string:
		return "string"
	case bool:
		return "bool"
	}
	return "other"
}

// IsGIF reports whether r starts with the bytes "GIF", reading them with
// r.Read.
func IsGIF(r io.Reader) (bool, error) {
	head := make([]byte, 3)
	n, err := r.Read(head)
	if err != nil {
		return false, err
	}
	if n < 3 {
		return false, nil
	}
	return head[0] == 'G' && head[1] == 'I' && head[2] == 'F', nil
}

// IsOK reports whether all of r is "ok".
func IsOK(r io.Reader) bool {
	b, err := io.ReadAll(r)
	if err != nil {
		return false
	}
	return len(b) == 2 && b[0] == 'o' && b[1] == 'k'
}

// FirstLine is the first line of r, read by a bufio.Scanner: code that
// dowse does not follow.
func FirstLine(r io.Reader) string {
	sc := bufio.NewScanner(r)
	if sc.Scan() {
		return sc.Text()
	}
	return ""
}

// Total receives the numbers of in until it is closed and adds them.
func Total(in <-chan int) int {
	s := 0
	for v := range in {
		s += v
	}
	return s
}

// First receives one word from in, if there is one.
func First(in <-chan string) (string, bool) {
	w, ok := <-in
	return w, ok
}

// Countdown sends n, n-1, ..., 1 on out while it has room, and returns
// how many it sent.
func Countdown(out chan<- int, n int) int {
	sent := 0
	for i := n; i > 0 && len(out) < cap(out); i-- {
		out <- i
		sent++
	}
	return sent
}

// Poll takes a number from in if one is ready: a receive in a select,
// which dowse does not follow.
func Poll(in <-chan int) int {
	select {
	case v := <-in:
		return v
	default:
		return -1
	}
}
