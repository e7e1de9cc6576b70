package shapes

import (
	"context"
	"io"
	"testing"
)

func PutQuadrant(t *testing.T, p *Point) {
	if Quadrant(p) == 3 && p.X == -7 {
		t.Fatalf("third quadrant at x = -7: %+v", *p)
	}
}

func PutSum(t *testing.T, n *Node) {
	if Len(n) == 3 && Sum(n) == 10 {
		t.Fatal("three nodes that sum to 10")
	}
}

func PutX(t *testing.T, p *Point) {
	if p.X > 100 { // panics on a nil p
		t.Fatal("far right")
	}
}

func PutReport(t *testing.T, ctx context.Context, w io.Writer, err error, x int) {
	if Report(ctx, w, err, x) == "failed: " && x == 5 {
		t.Fatal("an error without a message at 5")
	}
}

// PutNodes passes on every input: its rows are regression tests.
func PutNodes(t *testing.T, ns []*Node) {
	total := 0
	for _, n := range ns {
		total += Len(n)
	}
	if total < 0 {
		t.Fatal("negative length")
	}
}

func PutRetry(t *testing.T, op func() error) {
	if op == nil {
		return
	}
	if k, err := Retry(3, op); err == nil && k == 3 {
		t.Fatal("succeeded on the last try")
	}
}

func PutCount(t *testing.T, xs []int, keep func(int) bool) {
	if keep != nil && len(xs) == 2 && Count(xs, keep) == 1 && xs[0] == 5 {
		t.Fatal("one of two kept, the first is 5")
	}
}

func PutDescribe(t *testing.T, v any) {
	if Describe(v) == "bool" {
		t.Fatal("a bool")
	}
}

func PutIsGIF(t *testing.T, r io.Reader) {
	if ok, _ := IsGIF(r); ok {
		t.Fatal("a GIF")
	}
}

func PutIsOK(t *testing.T, r io.Reader) {
	if IsOK(r) {
		t.Fatal("ok")
	}
}

func PutFirstLine(t *testing.T, r io.Reader) {
	if FirstLine(r) == "hi!" {
		t.Fatal("hi!")
	}
}

func PutTotal(t *testing.T, in <-chan int) {
	if Total(in) == 42 {
		t.Fatal("42")
	}
}

func PutFirst(t *testing.T, in <-chan string) {
	if w, ok := First(in); ok && w == "go" {
		t.Fatal("go")
	}
}

func PutCountdown(t *testing.T, out chan<- int, n int) {
	if Countdown(out, n) == 3 {
		t.Fatal("full")
	}
}

func PutPoll(t *testing.T, in <-chan int) {
	if Poll(in) == 1234567 {
		t.Fatal("1234567")
	}
}
