package explore

import (
	"context"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/rt"
)

// helperEnv makes the test binary act as a worker for the fake program
// find, speaking the protocol on fds 3 and 4 like rt.Serve does.
const helperEnv = "DOWSE_EXPLORE_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		helperWorker()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helperWorker serves find. y == -4 crashes the process, y == 4 hangs,
// y == 77 ends it by SIGINT, x == -4 prints before replying.
func helperWorker() {
	in, out := os.NewFile(3, "req"), os.NewFile(4, "res")
	enc, dec := gob.NewEncoder(out), gob.NewDecoder(in)
	var setup rt.Setup
	if err := dec.Decode(&setup); err != nil {
		os.Exit(1)
	}
	if err := enc.Encode(&rt.Hello{Targets: []rt.TargetInfo{
		{Name: find.name, Leaves: find.leaves},
		{Name: "PutBad", Err: "unsupported parameter type *int"},
	}}); err != nil {
		os.Exit(1)
	}
	for {
		var req rt.Request
		if err := dec.Decode(&req); err != nil {
			return
		}
		x, y := int64(req.Inputs[0].Bits), int64(req.Inputs[1].Bits)
		switch {
		case y == -4:
			fmt.Println("crashing on purpose")
			os.Exit(3)
		case y == 4:
			time.Sleep(time.Hour)
		case y == 77:
			// A Ctrl-C reaching the worker with dowse.
			self, _ := os.FindProcess(os.Getpid())
			_ = self.Signal(os.Interrupt)
			time.Sleep(time.Hour)
		case x == -4:
			fmt.Println("hello from the worker")
		}
		res := find.exec(req.Inputs, req.MaxBranches)
		res.Seq = req.Seq
		if err := enc.Encode(&res); err != nil {
			return
		}
	}
}

// twoInts is the layout of find's inputs, (x, y int64).
var twoInts = &rt.Layout{
	Params: []rt.Param{{Name: "x", Shape: 0}, {Name: "y", Shape: 0}},
	Shapes: []rt.Shape{{Kind: rt.ShapeScalar, Type: "int64", K: rt.KInt64}},
	Depth:  1,
}

func helperCommand(t *testing.T) Command {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Command{Path: exe, Env: []string{helperEnv + "=1"}, Dir: t.TempDir()}
}

func TestPoolHelper(t *testing.T) {
	ctx := context.Background()
	pool := NewPool(helperCommand(t), find.name, twoInts, 2, 500*time.Millisecond)
	defer pool.Close()
	leaves, err := pool.Leaves(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 2 {
		t.Fatalf("leaves = %v", leaves)
	}
	vals := func(x, y int64) []rt.Value { return []rt.Value{{Bits: uint64(x)}, {Bits: uint64(y)}} }
	reqs := []rt.Request{
		{Seq: 1, Target: find.name, Inputs: vals(2, 4)},   // hangs
		{Seq: 2, Target: find.name, Inputs: vals(0, -4)},  // crashes
		{Seq: 3, Target: find.name, Inputs: vals(2, 1)},   // passes
		{Seq: 4, Target: find.name, Inputs: vals(-4, 0)},  // skips, with output
		{Seq: 5, Target: find.name, Inputs: vals(2, -3)},  // panics
		{Seq: 6, Target: find.name, Inputs: vals(-9, -4)}, // crashes again
	}
	outs, err := pool.Run(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		status rt.Status
		died   bool
		output string
	}{
		{rt.StatusTimeout, true, ""},
		{rt.StatusExit, true, "crashing on purpose\n"},
		{rt.StatusPass, false, ""},
		{rt.StatusSkip, false, ""},
		{rt.StatusPanic, false, ""},
		{rt.StatusExit, true, "crashing on purpose\n"},
	}
	for i, o := range outs {
		w := want[i]
		if o.Result.Seq != reqs[i].Seq || o.Result.Status != w.status || o.Died != w.died || o.Output != w.output {
			t.Errorf("request %d: seq %d status %s died %v output %q; want %s %v %q",
				i, o.Result.Seq, o.Result.Status, o.Died, o.Output, w.status, w.died, w.output)
		}
	}
	if pool.Restarts() < 1 {
		t.Errorf("restarts = %d, want at least 1", pool.Restarts())
	}

	// The whole loop on real processes.
	rep, err := Explore(ctx, Config{}, Target{Name: find.name}, pool, &bruteSolver{r: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Statuses[rt.StatusExit] == 0 || rep.Statuses[rt.StatusTimeout] == 0 || rep.Exhaustive {
		t.Errorf("statuses %v, exhaustive %v", rep.Statuses, rep.Exhaustive)
	}
}

// TestPoolStopSignal runs an input on which the worker ends by SIGINT, as
// when a terminal's Ctrl-C reaches dowse's workers with dowse: if the
// context ends with it, the run is skipped (a stop is no finding of the
// input); if it does not, the run ended its worker like any other.
func TestPoolStopSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT")
	}
	tests := []struct {
		name    string
		stop    bool // the context ends just after the signal
		skipped bool
	}{
		{"dowse stops", true, true},
		{"dowse goes on", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			pool := NewPool(helperCommand(t), find.name, twoInts, 1, 0)
			defer pool.Close()
			if _, err := pool.Leaves(ctx); err != nil {
				t.Fatal(err)
			}
			if tt.stop {
				time.AfterFunc(200*time.Millisecond, cancel)
			}
			outs, err := pool.Run(ctx, []rt.Request{{Seq: 1, Target: find.name, Inputs: []rt.Value{{Bits: 0}, {Bits: 77}}}})
			if err != nil {
				t.Fatal(err)
			}
			o := outs[0]
			if o.Skipped != tt.skipped || !tt.skipped && (!o.Died || o.Result.Status != rt.StatusExit) {
				t.Errorf("outcome skipped=%v died=%v status=%s, want skipped=%v", o.Skipped, o.Died, o.Result.Status, tt.skipped)
			}
		})
	}
}

func TestPoolUnsupportedTarget(t *testing.T) {
	pool := NewPool(helperCommand(t), "PutBad", twoInts, 1, 0)
	defer pool.Close()
	_, err := pool.Leaves(context.Background())
	if err == nil || !strings.Contains(err.Error(), "unsupported parameter type *int") {
		t.Errorf("Leaves: %v", err)
	}
	pool2 := NewPool(helperCommand(t), "PutMissing", twoInts, 1, 0)
	defer pool2.Close()
	if _, err := pool2.Leaves(context.Background()); err == nil || !strings.Contains(err.Error(), "does not serve PutMissing") {
		t.Errorf("Leaves: %v", err)
	}
}

// TestPoolRuntime runs a real worker: a test binary of a tiny module built
// against the real runtime, with its harness calling rt.Serve.
func TestPoolRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/tiny\n\ngo 1.22\n",
		"tiny.go": `package tiny

import "os"

func Exit() { os.Exit(3) }
`,
		"tiny_test.go": `package tiny

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func PutPass(t *testing.T, x int, s string, b []byte) {
	if len(s) != 0 || len(b) != 0 {
		t.Errorf("not zero")
	}
	if _, err := os.Stat("tiny_test.go"); err != nil {
		t.Errorf("not run in the package directory: %v", err)
	}
	f, err := os.CreateTemp("", "x")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func PutFail(t *testing.T, x int8) { t.Fatalf("x = %d", x) }

func PutPanic(t *testing.T) { var m map[int]int; m[0] = 1 }

func PutExit(t *testing.T) { fmt.Println("bye"); Exit() }

func PutHang(t *testing.T) { time.Sleep(time.Hour) }
`,
	})
	pkgs, _, err := load.Load(load.Config{Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	w, err := build.NewWork(false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	bin, err := w.Build(context.Background(), build.Config{}, pkgs[0], pkgs[0].Targets)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		target string
		leaves int
		status rt.Status
		died   bool
		output string
	}{
		{"PutPass", 1 + 1 + 1 + 3, rt.StatusPass, false, ""},
		{"PutFail", 1, rt.StatusFail, false, ""},
		{"PutPanic", 0, rt.StatusPanic, false, ""},
		{"PutExit", 0, rt.StatusExit, true, "bye"},
		{"PutHang", 0, rt.StatusTimeout, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			var target *load.Target
			for _, tg := range pkgs[0].Targets {
				if tg.Name == tt.target {
					target = tg
				}
			}
			bc, ok := bin.Worker(target)
			if !ok {
				t.Fatalf("no worker for %s", tt.target)
			}
			load.SetBounds(target.Layout, 3)
			pool := NewPool(Command(bc), tt.target, target.Layout, 1, 2*time.Second)
			defer pool.Close()
			leaves, err := pool.Leaves(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(leaves) != tt.leaves {
				t.Fatalf("leaves = %v", leaves)
			}
			outs, err := pool.Run(context.Background(), []rt.Request{{Seq: 7, Target: tt.target, Inputs: make([]rt.Value, len(leaves))}})
			if err != nil {
				t.Fatal(err)
			}
			o := outs[0]
			if o.Result.Seq != 7 || o.Result.Status != tt.status || o.Died != tt.died || !strings.Contains(o.Output, tt.output) {
				t.Errorf("seq %d status %s died %v messages %q output %q", o.Result.Seq, o.Result.Status, o.Died, o.Result.Messages, o.Output)
			}
			if tt.target == "PutPass" {
				// The worker's temporary files go to the pool's TMPDIR.
				if m, _ := filepath.Glob(filepath.Join(pool.tmp, "x*")); len(m) != 1 {
					t.Errorf("temp files in the worker's TMPDIR: %v", m)
				}
			}
		})
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPoolMaxTime checks that the time bound interrupts a run in progress
// without recording it as a time-out.
func TestPoolMaxTime(t *testing.T) {
	pool := NewPool(helperCommand(t), find.name, twoInts, 2, 0)
	defer pool.Close()
	start := time.Now()
	rep, err := Explore(context.Background(), Config{MaxTime: 500 * time.Millisecond}, Target{Name: find.name}, pool, &bruteSolver{r: 4})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("exploration took %v", d)
	}
	if rep.StopReason != ReasonMaxTime || rep.Statuses[rt.StatusTimeout] != 0 || rep.Exhaustive {
		t.Errorf("stop %q, statuses %v, exhaustive %v", rep.StopReason, rep.Statuses, rep.Exhaustive)
	}
}
