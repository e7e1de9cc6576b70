// Command overhead measures what instrumentation costs: it builds each
// benchmark package twice — instrumented, and plain with only the worker
// harness — runs every PUT on the same inputs in both, and prints the time
// spent in the PUT per run and the ratio instrumented ÷ plain (tracing on,
// as during exploration), with the median over the PUTs.
//
// Usage (from the repository root, with ../shared/bench beside it):
//
//	go run ./bench/overhead [-bench ../shared/bench] [-runs 300] [pkgs...]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/rt"
)

func main() {
	benchDir := flag.String("bench", "../shared/bench", "benchmark module")
	runs := flag.Int("runs", 300, "inputs per PUT")
	maxLen := flag.Int("max-len", 6, "length of slice inputs")
	reps := flag.Int("reps", 5, "repetitions of each input (the minimum time counts)")
	flag.Parse()
	log.SetFlags(0)
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./put/triangle", "./put/quicksort", "./put/linkedlist", "./put/arraylist", "./put/hashtable", "./put/bag", "./put/rbtree"}
	}
	// Work on a copy: the benchmark module is read-only to us.
	src, err := filepath.Abs(*benchDir)
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "overhead")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	mod := filepath.Join(tmp, "bench")
	if err := os.CopyFS(mod, os.DirFS(src)); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	loaded, _, err := load.Load(load.Config{Dir: mod}, pkgs...)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d inputs per PUT, slices of up to %d elements, min of %d repetitions\n\n", *runs, *maxLen, *reps)
	fmt.Println("| PUT | plain µs/run | instrumented µs/run | ratio |")
	fmt.Println("|---|---:|---:|---:|")
	var ratios []float64
	for _, p := range loaded {
		var targets []*load.Target
		for _, t := range p.Targets {
			if t.Err == nil && t.Kind == load.KindPUT {
				targets = append(targets, t)
			}
		}
		if len(targets) == 0 {
			continue
		}
		bins := map[string]*build.Binary{}
		for _, mode := range []struct {
			name string
			ins  build.Instrumenter
		}{{"plain", build.NoInstrument{}}, {"instrumented", &build.SourceInstrumenter{}}} {
			w, err := build.NewWork(false)
			if err != nil {
				log.Fatal(err)
			}
			defer w.Close()
			b, err := w.Build(ctx, build.Config{Instrumenter: mode.ins}, p, targets)
			if err != nil {
				log.Fatalf("%s: %v", p.Path, err)
			}
			bins[mode.name] = b
		}
		for _, t := range targets {
			plain, inst, err := measure(ctx, bins, t, *runs, *maxLen, *reps)
			if err != nil {
				log.Printf("%s: %v", t.Name, err)
				continue
			}
			r := inst / plain
			ratios = append(ratios, r)
			fmt.Printf("| %s.%s | %.2f | %.2f | %.2f× |\n", p.Name, t.Name, plain/1e3, inst/1e3, r)
		}
	}
	sort.Float64s(ratios)
	if len(ratios) > 0 {
		fmt.Printf("\nmedian ratio over %d PUTs: %.2f×\n", len(ratios), ratios[len(ratios)/2])
	}
}

// measure runs the same inputs on both binaries and returns the mean
// nanoseconds per run spent in the PUT, plain and instrumented.
func measure(ctx context.Context, bins map[string]*build.Binary, t *load.Target, runs, maxLen, reps int) (float64, float64, error) {
	var inputs [][]rt.Value
	var means [2]float64
	for i, mode := range []string{"plain", "instrumented"} {
		cmd, ok := bins[mode].Worker(t)
		if !ok {
			return 0, 0, fmt.Errorf("not served")
		}
		load.SetBounds(t.Layout, maxLen)
		pool := explore.NewPool(explore.Command{Path: cmd.Path, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Dir}, t.Name, t.Layout, 1, time.Minute)
		leaves, err := pool.Leaves(ctx)
		if err != nil {
			return 0, 0, err
		}
		if inputs == nil {
			rnd := rand.New(rand.NewSource(1))
			for j := 0; j < runs; j++ {
				inputs = append(inputs, randomInput(rnd, leaves, maxLen))
			}
		}
		best := make([]int64, runs)
		for r := 0; r < reps; r++ {
			var reqs []rt.Request
			for j, in := range inputs {
				reqs = append(reqs, rt.Request{Seq: uint64(j + 1), Target: t.Name, Inputs: in, MaxBranches: 100000})
			}
			outs, err := pool.Run(ctx, reqs)
			if err != nil {
				return 0, 0, err
			}
			for j, o := range outs {
				if r == 0 || o.Result.Nanos < best[j] {
					best[j] = o.Result.Nanos
				}
			}
		}
		pool.Close()
		var sum int64
		for _, b := range best {
			sum += b
		}
		means[i] = float64(sum) / float64(runs)
	}
	return means[0], means[1], nil
}

// randomInput draws small values: the benchmark PUTs branch on orderings
// and signs, which small values exercise.
func randomInput(rnd *rand.Rand, leaves []rt.Leaf, maxLen int) []rt.Value {
	vals := make([]rt.Value, len(leaves))
	for i, l := range leaves {
		switch {
		case l.IsLen:
			vals[i].Bits = uint64(rnd.Intn(maxLen + 1))
		case l.K == rt.KString:
			b := make([]byte, rnd.Intn(maxLen+1))
			for j := range b {
				b[j] = byte('a' + rnd.Intn(4))
			}
			vals[i].Str = string(b)
		case l.K == rt.KBool:
			vals[i].Bits = uint64(rnd.Intn(2))
		default:
			vals[i].Bits = uint64(int64(rnd.Intn(11) - 4))
		}
	}
	return vals
}
