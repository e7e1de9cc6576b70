package sym

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dowse-go/dowse/rt"
)

// TestUnreferencedTermsAreForgotten checks that the Context holds terms
// weakly.
func TestUnreferencedTermsAreForgotten(t *testing.T) {
	c := NewContext()
	base := c.Terms()
	func() {
		x := c.Input(0, rt.KInt64)
		for i := range 1000 {
			x = c.Binary(rt.OpMul, x, c.Const(rt.KInt64, uint64(i+2)))
		}
	}()
	if c.Terms() < base+1000 {
		t.Fatalf("only %d terms after building 1000", c.Terms())
	}
	deadline := time.Now().Add(5 * time.Second)
	for c.Terms() > base+10 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if n := c.Terms(); n > base+10 {
		t.Errorf("%d terms still known after collection, want about %d", n, base)
	}
	// The constants true and false stay.
	if c.Bool(true) != c.True() || !c.True().IsTrue() {
		t.Error("true was lost")
	}
}

func TestConcurrentConstruction(t *testing.T) {
	c := NewContext()
	const workers = 8
	results := make([]*Expr, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			gen := newGenerator(42) // the same expressions in every goroutine
			var last *Expr
			for range 500 {
				g := gen.expr(rt.KBool, 4)
				e, err := g.term(c)
				if err != nil {
					t.Error(err)
					return
				}
				last = e
			}
			results[w] = last
		})
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		if results[w] != results[0] {
			t.Fatalf("goroutine %d built a different pointer for the same term", w)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	gen := newGenerator(3)
	var arenas [][]rt.Node
	for range 64 {
		arenas = append(arenas, gen.expr(rt.KBool, 6).arena())
	}
	nodes := 0
	for _, a := range arenas {
		nodes += len(a) - 1
	}
	c := NewContext()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range arenas {
			if _, err := c.Decode(a); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nodes), "ns/node")
}

func BenchmarkEval(b *testing.B) {
	gen := newGenerator(4)
	c := NewContext()
	var terms []*Expr
	for range 64 {
		e, err := gen.expr(rt.KBool, 6).term(c)
		if err != nil {
			b.Fatal(err)
		}
		terms = append(terms, e)
	}
	in := gen.inputs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev := NewEvaluator(in)
		for _, e := range terms {
			ev.Holds(e)
		}
	}
}
