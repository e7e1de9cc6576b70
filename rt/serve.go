package rt

import (
	"encoding/gob"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// worker is the serving side of the protocol.
type worker struct {
	enc    *gob.Encoder
	out    *os.File
	maxLen int
	seq    uint64                   // request being served
	funcs  map[string]reflect.Value // the functions that build inputs
}

var theWorker *worker

// Serve runs the worker loop on the PUTs targets (name to function) when
// the test binary was started by dowse as a worker, and skips the test
// otherwise. It returns when the coordinator closes the request stream.
func Serve(t *testing.T, targets map[string]any) {
	if os.Getenv(EnvWorker) != "1" {
		t.Skip("dowse worker harness: runs only under dowse")
	}
	if want := os.Getenv(EnvTargets); want != "" {
		keep := map[string]any{}
		for _, name := range strings.Split(want, ",") {
			if f, ok := targets[name]; ok {
				keep[name] = f
			}
		}
		for name, f := range targets {
			if strings.HasPrefix(name, "@") { // functions that build inputs
				keep[name] = f
			}
		}
		targets = keep
	}
	serve(t, targets, nil)
}

// Add stands for f.Add in instrumented code: besides adding the seed, it
// keeps it for the worker's Hello when f is the fuzz target the worker
// serves, so that seeds computed at run time seed the search too.
func Add(f *testing.F, args ...any) {
	if os.Getenv(EnvWorker) == "1" && os.Getenv(EnvFuzz) == f.Name() {
		seed := make([]SeedValue, len(args))
		for i, a := range args {
			seed[i] = seedValue(a)
		}
		addedSeeds = append(addedSeeds, seed)
	}
	f.Add(args...)
}

// addedSeeds are the seeds the served fuzz target added.
var addedSeeds [][]SeedValue

func seedValue(a any) SeedValue {
	v := reflect.ValueOf(a)
	switch {
	case !v.IsValid():
	case v.Kind() == reflect.Bool:
		return SeedValue{Kind: "bool", Bool: v.Bool()}
	case v.CanInt():
		return SeedValue{Kind: "int", Int: v.Int()}
	case v.CanUint():
		return SeedValue{Kind: "uint", Uint: v.Uint()}
	case v.CanFloat():
		return SeedValue{Kind: "float", Float: v.Float()}
	case v.Kind() == reflect.String:
		return SeedValue{Kind: "string", Str: v.String()}
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8:
		return SeedValue{Kind: "bytes", Bytes: append([]byte{}, v.Bytes()...)}
	}
	return SeedValue{Unsupported: true}
}

// Fuzz stands for f.Fuzz(ff) in instrumented code. Outside a worker it is
// exactly f.Fuzz(ff); in a worker serving f's fuzz target it runs the
// worker loop with ff as the target.
func Fuzz(f *testing.F, ff any) {
	if os.Getenv(EnvWorker) != "1" || os.Getenv(EnvFuzz) != f.Name() {
		f.Fuzz(ff)
		return
	}
	fv := reflect.ValueOf(ff)
	typ := fv.Type()
	if typ.Kind() != reflect.Func || typ.NumIn() == 0 {
		f.Fuzz(ff) // let testing report the misuse
		return
	}
	zeros := make([]any, 0, typ.NumIn()-1)
	for i := 1; i < typ.NumIn(); i++ {
		zeros = append(zeros, reflect.Zero(typ.In(i)).Interface())
	}
	f.Add(zeros...)
	served := false
	wrapper := reflect.MakeFunc(typ, func(args []reflect.Value) []reflect.Value {
		if !served {
			served = true
			t := args[0].Interface().(*testing.T)
			serve(t, map[string]any{f.Name(): ff}, addedSeeds)
			os.Exit(0)
		}
		return nil
	})
	f.Fuzz(wrapper.Interface())
}

type target struct {
	fn      reflect.Value
	params  []reflect.Type
	layout  *Layout
	choices []bool
	leaves  []Leaf
	auto    bool // an automatic target: no *testing.T, results reported
	// builds is set when building the inputs calls the package's code
	// (a ShapeBuilt value): the run then tells the coordinator when
	// building starts and ends (StatusBuilding, StatusBuilt), so that a
	// crash while building rejects the input instead of being a failure.
	builds bool
	// sandbox are the variables of the isolated call sites whose results
	// the layout's last parameters are (Param.Sandbox): the worker sets
	// them instead of passing arguments, and turns the sandbox on.
	sandbox []reflect.Value
}

func serve(t *testing.T, targets map[string]any, seeds [][]SeedValue) {
	in := os.NewFile(3, "dowse-requests")
	out := os.NewFile(4, "dowse-results")
	if in == nil || out == nil {
		t.Fatal("dowse worker: file descriptors 3 and 4 are not open")
	}
	if limit, err := strconv.ParseUint(os.Getenv(EnvMaxMemory), 10, 64); err == nil && limit > 0 {
		limitMemory(limit)
	}
	dec := gob.NewDecoder(in)
	var setup Setup
	if err := dec.Decode(&setup); err != nil {
		t.Fatalf("dowse worker: reading the setup: %v", err)
	}
	w := &worker{enc: gob.NewEncoder(out), out: out}
	for _, l := range setup.Layouts {
		w.maxLen = max(w.maxLen, l.MaxLen)
	}
	theWorker = w
	// In a worker no isolated call runs its callee: the sandboxes of the
	// binary's packages are on from the start (a fuzz target's sites,
	// which are not inputs, return zero values).
	isolate(true)

	byName := map[string]*target{}
	var hello Hello
	keys := make([]string, 0, len(targets))
	// Entries named "@expr" are the functions that build inputs (Build):
	// constructors and methods, by their expression in the package.
	funcs := map[string]reflect.Value{}
	for k, f := range targets {
		if expr, ok := strings.CutPrefix(k, "@"); ok {
			funcs[expr] = reflect.ValueOf(f)
			continue
		}
		keys = append(keys, k)
	}
	w.funcs = funcs
	sort.Strings(keys)
	for _, name := range keys {
		info := TargetInfo{Name: name}
		fv := reflect.ValueOf(targets[name])
		ft := fv.Type()
		layout, ok := setup.Layouts[name]
		switch {
		case ft.Kind() != reflect.Func:
			info.Err = "not a function"
		case !ok:
			info.Err = "no input layout"
		default:
			tg := &target{fn: fv, layout: &layout}
			// A PUT takes *testing.T first; any other function is an
			// automatic target, called with all its parameters built.
			first := 0
			if ft.NumIn() > 0 && ft.In(0) == reflect.TypeOf((*testing.T)(nil)) {
				first = 1
			} else {
				tg.auto = true
			}
			for i := first; i < ft.NumIn(); i++ {
				tg.params = append(tg.params, ft.In(i))
			}
			var err error
			for _, p := range layout.Params {
				if p.Sandbox == "" {
					continue
				}
				v, ok := sandboxVar(p.Sandbox)
				if !ok {
					err = fmt.Errorf("no isolated call site %s", p.Sandbox)
					break
				}
				tg.sandbox = append(tg.sandbox, v)
				tg.params = append(tg.params, v.Elem().Type())
			}
			if err == nil {
				err = checkLayout(tg.layout, tg.params, funcs)
			}
			if err == nil && len(layout.Results)+len(layout.After) > 0 {
				err = checkResults(tg.layout, ft, funcs)
			}
			if err == nil {
				tg.leaves, err = tg.layout.Leaves()
				tg.choices = tg.layout.Choices()
				for _, sh := range tg.layout.Shapes {
					tg.builds = tg.builds || sh.Kind == ShapeBuilt
				}
			}
			if err != nil {
				info.Err = err.Error()
			} else {
				info.Leaves = tg.leaves
				info.Seeds = seeds
				byName[name] = tg
			}
		}
		hello.Targets = append(hello.Targets, info)
	}
	if err := w.enc.Encode(&hello); err != nil {
		t.Fatalf("dowse worker: %v", err)
	}
	for {
		var req Request
		if err := dec.Decode(&req); err != nil {
			return // the coordinator closed the stream
		}
		res := w.run(t, byName[req.Target], &req)
		if debugTrace != "" {
			debugRun(&req, res)
		}
		if err := w.enc.Encode(res); err != nil {
			return
		}
	}
}

// mark tells the coordinator that run seq reached phase (StatusBuilding,
// StatusBuilt); the run's result follows later.
func (w *worker) mark(seq uint64, phase Status) {
	was := on.Swap(false) // the encoder's work is not the target's
	_ = w.enc.Encode(&Result{Seq: seq, Status: phase})
	on.Store(was)
}

// run executes one request in a subtest of t.
func (w *worker) run(t *testing.T, tg *target, req *Request) *Result {
	res := &Result{Seq: req.Seq}
	if tg == nil || len(req.Inputs) != len(tg.leaves) {
		res.Status = StatusExit
		res.Messages = []string{fmt.Sprintf("dowse worker: no target %q with %d inputs", req.Target, len(req.Inputs))}
		return res
	}
	w.seq = req.Seq
	var sub *testing.T
	finished := false
	panicked := false
	body := func(st *testing.T) {
		sub = st
		st.Cleanup(func() {
			// After the target's parallel subtests too.
			untaken(&cur.pending)
			endChans()
			on.Store(false)
		})
		defer func() {
			if r := recover(); r != nil {
				panicked = true
				res.Messages = append(res.Messages, fmt.Sprint(r))
				res.PanicAt = panicSite()
				_, res.RuntimeError = r.(runtime.Error)
			}
		}()
		growStack(16) // 256 KiB: stack growth would move stack-allocated cells
		resetRun(req.MaxBranches)
		cur.t = st
		for i, l := range tg.leaves {
			cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: l.K, Val: uint64(i)}))
		}
		b := newBuilder(tg.layout, tg.choices, w.funcs, req.Inputs)
		cur.mockBound = max(1, tg.layout.MaxLen)
		if tg.builds {
			w.mark(req.Seq, StatusBuilding)
		}
		on.Store(true)
		args := make([]reflect.Value, 0, len(tg.params)+1)
		shadows := make([]Arg, 0, len(tg.params)+1)
		if !tg.auto {
			args = append(args, reflect.ValueOf(st))
			shadows = append(shadows, Arg{}) // the *testing.T carries no shadow
		}
		if tg.sandbox != nil {
			isolate(true)
		}
		isolatedCalls.Store(0)
		own := len(tg.params) - len(tg.sandbox)
		if own < len(tg.params) {
			// The isolated call sites' stubs are set first: building the
			// parameters (a receiver made by its constructor) may reach
			// isolated calls, which must return the run's values, as they
			// do when a generated isolated test builds its table.
			for i := 0; i < own; i++ {
				b.skip(tg.layout.Params[i].Shape)
			}
			for i := own; i < len(tg.params); i++ {
				v, _ := b.arg(i, tg.params[i])
				tg.sandbox[i-own].Elem().Set(v)
			}
			b.next = 0
		}
		for i, p := range tg.params[:own] {
			v, a := b.arg(i, p)
			args = append(args, v)
			shadows = append(shadows, a)
		}
		if tg.builds {
			w.mark(req.Seq, StatusBuilt)
		}
		if b.rejected != "" {
			// A built input could not be made: no input of the target.
			st.Skip("dowse: building the input: " + b.rejected)
		}
		Call(0, shadows...)
		start := time.Now()
		defer func() { res.Nanos = time.Since(start).Nanoseconds() }()
		var results []reflect.Value
		if tg.fn.Type().IsVariadic() {
			// The variadic parameter's input is a slice, passed spread
			// (f(a, xs...)) as the generated test passes it.
			results = tg.fn.CallSlice(args)
		} else {
			results = tg.fn.Call(args)
		}
		finished = true
		if tg.auto {
			on.Store(false) // reading the results must not record anything
			res.Outputs = outputs(tg.layout, results, args)
			res.MockCalls = mockCalls(tg.layout, w.funcs, args)
		}
	}
	// The target runs in a subtest of a subtest: a PUT that calls
	// t.Parallel (or whose subtests do) goes on as soon as the outer
	// subtest's function returns, and the outer t.Run returns when the
	// target and all its subtests are done, as under go test. Run in a
	// subtest of t, a parallel PUT was paused until the worker ended (its
	// run reported as a failure at once), and the parallel subtests of a
	// PUT ran after the run had ended.
	t.Run("run", func(pt *testing.T) { pt.Run("target", body) })
	on.Store(false)
	w.fill(res)
	// Counted for every target: a site no target input covers (reached
	// through a func value) returns zero values, and its row needs the
	// sandbox all the same.
	res.Isolated = int(isolatedCalls.Load())
	switch {
	case panicked:
		res.Status = StatusPanic
	case cur.truncated:
		res.Status = StatusBound
	case sub != nil && sub.Skipped():
		res.Status = StatusSkip
	case sub != nil && sub.Failed():
		res.Status = StatusFail
	case !finished:
		res.Status = StatusFail // runtime.Goexit without a failure mark
	default:
		res.Status = StatusPass
	}
	return res
}

// fill copies the traced state of the run into res.
func (w *worker) fill(res *Result) {
	res.Events = append([]Event(nil), cur.events...)
	res.Nodes = append([]Node(nil), cur.nodes...)
	res.Concretized = append([]Concretization(nil), cur.conc...)
	res.Messages = append(append([]string(nil), cur.messages...), res.Messages...)
	res.Truncated = cur.truncated
	res.Recursion, res.RecursionDepth = cur.recursion, cur.recursionDepth
	res.Nilled = append([]int(nil), cur.nilled...)
	res.NodeBounded = cur.nodeBounded
	res.AllocBound = cur.allocBound
	res.Unmade = cur.unmade
	res.Goroutines = cur.goroutine || concurrent.Load()
	if res.PanicAt == "" && cur.recoveredAt != "" {
		res.PanicAt = cur.recoveredAt
	}
}

// panicSite returns "file:line" of the frame that panicked, called from a
// deferred function while panicking.
func panicSite() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	seenPanic := false
	for {
		fr, more := frames.Next()
		if fr.Function == "runtime.gopanic" {
			seenPanic = true
		} else if seenPanic && !strings.HasPrefix(fr.Function, "runtime.") {
			return fmt.Sprintf("%s:%d", fr.File, fr.Line)
		}
		if !more {
			return ""
		}
	}
}

// Recovered stands for recover() in instrumented code: it records where
// the recovered panic happened, which is part of a path's ending.
func Recovered(r any) any {
	if r != nil && on.Load() && cur.recoveredAt == "" {
		cur.recoveredAt = panicSite()
	}
	return r
}

// Exit stands for os.Exit in instrumented code: a worker reports the run
// before the process ends.
func Exit(code int) {
	if w := theWorker; w != nil && on.Load() {
		untaken(&cur.pending)
		endChans()
		on.Store(false)
		res := &Result{Seq: w.seq, Status: StatusExit, Messages: []string{fmt.Sprintf("os.Exit(%d)", code)}}
		w.fill(res)
		_ = w.enc.Encode(res)
	}
	os.Exit(code)
}

// Msgf formats a failure or skip message of t.Errorf, t.Fatalf or t.Skipf
// in instrumented code and records it for the run's report.
func Msgf(format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	note(s)
	return s
}

// Msg is Msgf for t.Error, t.Fatal and t.Skip: it formats like
// fmt.Sprintln without the final newline.
func Msg(args ...any) string {
	s := strings.TrimSuffix(fmt.Sprintln(args...), "\n")
	note(s)
	return s
}

func note(s string) {
	if on.Load() && len(cur.messages) < 16 && lock() {
		cur.messages = append(cur.messages, s)
		unlock()
	}
}

// checkResults reports whether the results of layout l fit the results of
// the function type ft.
func checkResults(l *Layout, ft reflect.Type, funcs map[string]reflect.Value) error {
	if len(l.Results) != ft.NumOut() {
		return fmt.Errorf("layout has %d results, the function %d", len(l.Results), ft.NumOut())
	}
	c := &checker{l: l, funcs: funcs, seen: map[fit]bool{}}
	for i, r := range l.Results {
		if err := c.fits(r.Shape, ft.Out(i)); err != nil {
			return fmt.Errorf("result %d: %w", i+1, err)
		}
	}
	return nil
}
