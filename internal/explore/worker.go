package explore

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dowse-go/dowse/internal/procgroup"
	"github.com/dowse-go/dowse/rt"
)

// Command says how to start a worker process.
type Command struct {
	Path string   // the instrumented test binary
	Args []string // e.g. -test.run=^TestDowseWorker$
	Env  []string // added to the coordinator's environment (DOWSE_WORKER=1, ...)
	Dir  string   // working directory: the package directory, as go test uses
}

// RunOutcome is what running one request gave.
type RunOutcome struct {
	Result rt.Result
	// Died is set when the worker process ended without a Result (crash,
	// fatal error, os.Exit not seen by the runtime) or was killed after
	// the run time bound; Result.Status is then StatusExit or
	// StatusTimeout and Result has no events.
	Died bool
	// Building is set with Died when the worker died (or was killed)
	// while building the input, in the package's own constructors and
	// methods (rt.Build): Result.Status is then StatusSkip, the input
	// rejected, not a failure of the target.
	Building bool
	Output   string // the worker's output during the run, for a run that ended the worker
	// Skipped is set when the context ended before the run finished (or
	// started); nothing is known about it then.
	Skipped bool
}

// Executor runs requests for one target.
type Executor interface {
	// Leaves starts the executor and returns the target's input layout.
	Leaves(ctx context.Context) ([]rt.Leaf, error)
	// Run runs the requests, as many at once as it can, and returns their
	// outcomes in the order of reqs. Requests not finished when ctx ends
	// are marked Skipped. An error means the executor cannot run anything
	// any more.
	Run(ctx context.Context, reqs []rt.Request) ([]RunOutcome, error)
	Close() error
}

// Alone is an Executor that can also run requests each alone in a
// worker process started for it and ended after it: a run that depends
// on nothing earlier runs left in a worker's memory (package variables,
// registries, caches) ends there as it ends anywhere.
type Alone interface {
	RunAlone(ctx context.Context, reqs []rt.Request) ([]RunOutcome, error)
}

// Seeder is an Executor that also knows seeds of the target found when
// it started (the f.Add calls a fuzz target made at run time). Explore
// runs them after the zero input, with Target.Seeds.
type Seeder interface {
	Seeds() [][]any
}

// maxOutput bounds the output kept per worker.
const maxOutput = 64 << 10

// helloTimeout bounds the start of a worker (up to its Hello).
const helloTimeout = 60 * time.Second

// Pool runs a target on worker processes: up to N at a time, each serving
// one request after another, each restarted when it dies or is killed.
type Pool struct {
	cmd        Command
	target     string
	layout     *rt.Layout
	n          int
	runTimeout time.Duration

	tmp    string // TMPDIR of the workers
	procs  []*proc
	leaves []rt.Leaf
	seeds  [][]any // the seeds the target added at run time (fuzz targets)

	mu       sync.Mutex
	restarts int
}

// NewPool returns a pool of n workers (at least 1) started by cmd, serving
// target, whose inputs layout describes. A run that takes longer than
// runTimeout (0: no bound) is killed.
func NewPool(cmd Command, target string, layout *rt.Layout, n int, runTimeout time.Duration) *Pool {
	if n < 1 {
		n = 1
	}
	return &Pool{cmd: cmd, target: target, layout: layout, n: n, runTimeout: runTimeout, procs: make([]*proc, n)}
}

// Restarts is the number of times a worker was started again after it
// died or was killed.
func (p *Pool) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// Leaves implements Executor: it starts the first worker and reads the
// target's layout from its Hello.
func (p *Pool) Leaves(ctx context.Context) ([]rt.Leaf, error) {
	if p.tmp == "" {
		tmp, err := procgroup.MkdirTemp("", "dowse-tmp-")
		if err != nil {
			return nil, fmt.Errorf("creating worker temp directory: %w", err)
		}
		p.tmp = tmp
	}
	if _, err := p.proc(ctx, 0); err != nil {
		return nil, err
	}
	return p.leaves, nil
}

// Seeds implements Seeder: the seeds the fuzz target added when the first
// worker ran it, whatever computed them.
func (p *Pool) Seeds() [][]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seeds
}

// seedValues turns the seeds of a Hello into Go values (int64, uint64,
// float64, bool, string, []byte), leaving out seeds with an unsupported value.
func seedValues(seeds [][]rt.SeedValue) [][]any {
	var out [][]any
next:
	for _, seed := range seeds {
		vals := make([]any, len(seed))
		for i, v := range seed {
			switch v.Kind {
			case "int":
				vals[i] = v.Int
			case "uint":
				vals[i] = v.Uint
			case "float":
				vals[i] = v.Float
			case "bool":
				vals[i] = v.Bool
			case "string":
				vals[i] = v.Str
			case "bytes":
				vals[i] = v.Bytes
			default:
				continue next
			}
		}
		out = append(out, vals)
	}
	return out
}

// proc returns the live worker of slot i, starting it if needed.
func (p *Pool) proc(ctx context.Context, i int) (*proc, error) {
	if w := p.procs[i]; w != nil && !w.dead() {
		return w, nil
	}
	if p.procs[i] != nil {
		p.mu.Lock()
		p.restarts++
		p.mu.Unlock()
	}
	w, hello, err := startProc(ctx, p.cmd, p.tmp, &rt.Setup{Layouts: map[string]rt.Layout{p.target: *p.layout}})
	if err != nil {
		return nil, err
	}
	var info *rt.TargetInfo
	for i := range hello.Targets {
		if hello.Targets[i].Name == p.target {
			info = &hello.Targets[i]
		}
	}
	switch {
	case info == nil:
		w.kill()
		return nil, fmt.Errorf("worker does not serve %s%s", p.target, w.outputTail())
	case info.Err != "":
		w.kill()
		return nil, fmt.Errorf("%s: %s", p.target, info.Err)
	}
	p.mu.Lock()
	if p.leaves == nil {
		p.leaves = info.Leaves
		if p.leaves == nil {
			p.leaves = []rt.Leaf{}
		}
		p.seeds = seedValues(info.Seeds)
	}
	p.mu.Unlock()
	p.procs[i] = w
	return w, nil
}

// Run implements Executor.
func (p *Pool) Run(ctx context.Context, reqs []rt.Request) ([]RunOutcome, error) {
	outs := make([]RunOutcome, len(reqs))
	jobs := make(chan int)
	errs := make([]error, p.n)
	var wg sync.WaitGroup
	for slot := 0; slot < p.n && slot < len(reqs); slot++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if errs[slot] != nil {
					continue
				}
				if ctx.Err() != nil {
					outs[i].Skipped = true
					continue
				}
				w, err := p.proc(ctx, slot)
				if err != nil {
					errs[slot] = err
					continue
				}
				o := w.run(ctx, &reqs[i], p.runTimeout)
				if o.Died && stoppedWithDowse(ctx, w) {
					// Nothing is known of the run: the worker ended
					// because dowse is stopping, not because of its
					// input.
					o = RunOutcome{Skipped: true}
				}
				outs[i] = o
			}
		}()
	}
	for i := range reqs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil && ctx.Err() == nil {
		return nil, err
	}
	return outs, nil
}

// RunAlone implements Alone: each request runs in a fresh worker
// process, up to N of them at a time, which is stopped after it.
func (p *Pool) RunAlone(ctx context.Context, reqs []rt.Request) ([]RunOutcome, error) {
	outs := make([]RunOutcome, len(reqs))
	errs := make([]error, len(reqs))
	sem := make(chan struct{}, p.n)
	var wg sync.WaitGroup
	for i := range reqs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if ctx.Err() != nil {
				outs[i].Skipped = true
				return
			}
			w, _, err := startProc(ctx, p.cmd, p.tmp, &rt.Setup{Layouts: map[string]rt.Layout{p.target: *p.layout}})
			if err != nil {
				// Not run: what it would do alone is not known.
				outs[i].Skipped = true
				errs[i] = fmt.Errorf("starting a fresh worker: %w", err)
				return
			}
			outs[i] = w.run(ctx, &reqs[i], p.runTimeout)
			w.stop()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil && ctx.Err() == nil {
		return nil, err
	}
	return outs, nil
}

// stopGrace is how long a worker that ended by SIGINT or SIGTERM waits
// for the context to end with it (stoppedWithDowse).
const stopGrace = time.Second

// stoppedWithDowse reports whether worker w, which died, ended because
// dowse is stopping: ctx is done, or w ended by SIGINT or SIGTERM — which
// a terminal's Ctrl-C sends to dowse's whole process group, workers
// included — and ctx ends within stopGrace. A worker ended by such a
// signal while dowse goes on is a run that ended its worker, as any other.
func stoppedWithDowse(ctx context.Context, w *proc) bool {
	if ctx.Err() != nil {
		return true
	}
	if !procgroup.EndedByStopSignal(w.cmd.ProcessState) {
		return false
	}
	select {
	case <-ctx.Done():
		return true
	case <-time.After(stopGrace):
		return false
	}
}

// Close implements Executor: it stops the workers and removes their temp
// directory.
func (p *Pool) Close() error {
	for _, w := range p.procs {
		if w != nil {
			w.stop()
		}
	}
	if p.tmp != "" {
		if err := procgroup.RemoveAll(p.tmp); err != nil {
			return fmt.Errorf("removing worker temp directory: %w", err)
		}
	}
	return nil
}

// proc is one worker process.
type proc struct {
	cmd     *exec.Cmd
	enc     *gob.Encoder
	req     *os.File // write end of the request pipe
	results chan rt.Result
	exited  chan struct{} // closed when the process has been waited for
	out     *ring
	gone    bool // the process ended or was killed
	// building is the Seq of the run whose input the worker is building
	// (between StatusBuilding and StatusBuilt marks), 0 if none.
	building atomic.Uint64
}

func startProc(ctx context.Context, c Command, tmp string, setup *rt.Setup) (*proc, *rt.Hello, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("starting worker: %w", err)
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, nil, fmt.Errorf("starting worker: %w", err)
	}
	w := &proc{req: reqW, results: make(chan rt.Result, 1), exited: make(chan struct{}), out: &ring{max: maxOutput}}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = append(append(os.Environ(), c.Env...), "TMPDIR="+tmp)
	cmd.ExtraFiles = []*os.File{reqR, resW} // fd 3, fd 4
	cmd.Stdout = w.out
	cmd.Stderr = w.out
	cmd.WaitDelay = time.Second
	w.cmd = cmd
	err = cmd.Start()
	reqR.Close()
	resW.Close()
	if err != nil {
		reqW.Close()
		resR.Close()
		return nil, nil, fmt.Errorf("starting worker %s: %w", c.Path, err)
	}
	w.enc = gob.NewEncoder(reqW)
	// A worker that dies before reading the setup closes the pipe: the
	// error shows below as a worker that ended without greeting.
	_ = w.enc.Encode(setup)
	go func() {
		cmd.Wait()
		close(w.exited)
	}()
	hello := make(chan *rt.Hello, 1)
	go func() {
		defer resR.Close()
		defer close(w.results)
		dec := gob.NewDecoder(resR)
		var h rt.Hello
		if err := dec.Decode(&h); err != nil {
			close(hello)
			return
		}
		hello <- &h
		for {
			var res rt.Result
			if err := dec.Decode(&res); err != nil {
				return
			}
			switch res.Status {
			case rt.StatusBuilding:
				w.building.Store(res.Seq)
				continue
			case rt.StatusBuilt:
				w.building.Store(0)
				continue
			}
			w.results <- res
		}
	}()
	timer := time.NewTimer(helloTimeout)
	defer timer.Stop()
	select {
	case h, ok := <-hello:
		if ok {
			return w, h, nil
		}
		<-w.exited
		return nil, nil, fmt.Errorf("worker %s ended without greeting (%v)%s", c.Path, cmd.ProcessState, w.outputTail())
	case <-timer.C:
		w.kill()
		return nil, nil, fmt.Errorf("worker %s did not greet within %v%s", c.Path, helloTimeout, w.outputTail())
	case <-ctx.Done():
		w.kill()
		return nil, nil, ctx.Err()
	}
}

func (w *proc) dead() bool {
	if w.gone {
		return true
	}
	select {
	case <-w.exited:
		w.gone = true
	default:
	}
	return w.gone
}

// kill ends the process and waits for it.
func (w *proc) kill() {
	w.gone = true
	w.cmd.Process.Kill()
	w.req.Close()
	<-w.exited
}

// stop asks the worker to end by closing its request stream, and kills it
// if it does not.
func (w *proc) stop() {
	if w.gone {
		return
	}
	w.gone = true
	w.req.Close()
	select {
	case <-w.exited:
	case <-time.After(5 * time.Second):
		w.cmd.Process.Kill()
		<-w.exited
	}
}

func (w *proc) outputTail() string {
	s := strings.TrimSpace(w.out.String())
	if s == "" {
		return ""
	}
	return ":\n" + s
}

// run sends one request and waits for its result.
func (w *proc) run(ctx context.Context, req *rt.Request, timeout time.Duration) RunOutcome {
	mark := w.out.Mark()
	died := func(status rt.Status, msg string) RunOutcome {
		w.kill()
		o := RunOutcome{Died: true, Output: w.out.Since(mark)}
		o.Result = rt.Result{Seq: req.Seq, Status: status, Messages: []string{msg}}
		if w.building.Load() == req.Seq {
			// The package's own constructor or method, building the
			// input, crashed or hung: the input is rejected, as when
			// such a call panics (see rt.Build).
			o.Building = true
			o.Result.Status = rt.StatusSkip
			o.Result.Messages = []string{"dowse: building the input: " + msg}
		}
		return o
	}
	if err := w.enc.Encode(req); err != nil {
		return died(rt.StatusExit, fmt.Sprintf("worker exited (%v)", w.exitState()))
	}
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	select {
	case res, ok := <-w.results:
		if !ok {
			return died(rt.StatusExit, fmt.Sprintf("worker exited (%v)", w.exitState()))
		}
		if res.Status == rt.StatusExit {
			// The runtime reported os.Exit; the process is ending.
			if w.building.Load() == req.Seq {
				return died(res.Status, strings.Join(res.Messages, "; "))
			}
			w.kill()
			return RunOutcome{Result: res, Output: w.out.Since(mark)}
		}
		return RunOutcome{Result: res}
	case <-timer:
		return died(rt.StatusTimeout, fmt.Sprintf("run exceeded %v", timeout))
	case <-ctx.Done():
		w.kill()
		return RunOutcome{Skipped: true}
	}
}

// exitState waits briefly for the process and describes how it ended.
func (w *proc) exitState() string {
	select {
	case <-w.exited:
	case <-time.After(5 * time.Second):
		w.cmd.Process.Kill()
		<-w.exited
	}
	if w.cmd.ProcessState == nil {
		return "unknown state"
	}
	return w.cmd.ProcessState.String()
}

// ring keeps the last max bytes written to it.
type ring struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int64 // bytes ever written
}

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.total += int64(len(p))
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.max; over > 0 {
		r.buf = append(r.buf[:0], r.buf[over:]...)
	}
	return len(p), nil
}

// Mark returns the position of the next byte written.
func (r *ring) Mark() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// Since returns what was written since mark, as far as it is still kept.
func (r *ring) Since(mark int64) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.total - mark
	if n > int64(len(r.buf)) {
		n = int64(len(r.buf))
	}
	return string(r.buf[int64(len(r.buf))-n:])
}

func (r *ring) String() string { return r.Since(0) }
