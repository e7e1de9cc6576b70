// Package engine runs dowse gen's pipeline on packages — load,
// instrument, build, explore ⇄ solve, emit — and streams the full result
// of each target (its report, the rows and files written for it and its
// summary) to a Handler, one target at a time, in a deterministic order.
// It owns the orchestration between the stages: the per-package
// pipeline, the worker pool and solver of each target, the keep or
// regenerate policy of generated files and the confirmation of generated
// rows with plain go test. Presenting results is the handler's job
// (Output drives an output.Handler); flags and exit codes are the
// command's.
package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/cache"
	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/gofuzz"
	"github.com/dowse-go/dowse/internal/isolate"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/procgroup"
	"github.com/dowse-go/dowse/internal/shard"
	"github.com/dowse-go/dowse/rt"
)

// Config says what to run and how: the settings of dowse gen's flags.
type Config struct {
	Dir              string         // directory to run in ("": the current one)
	Tags             string         // comma-separated build tags
	Run              *regexp.Regexp // explore only the targets whose names match (nil: all)
	InstrumentModule bool           // also instrument the module's other packages the tests import
	Instrument       []string       // package patterns of other modules to instrument
	Shard            shard.Spec     // the part of the packages this run explores
	Corpus           bool           // seed fuzz targets from testdata/fuzz and the fuzz cache
	KeepWork         bool           // keep the work directory
	MaxLen           int            // bound on the length of strings and slices
	LenCap           int            // how far the bound may be raised (explore.Raise)
	// FuzzShare is the share of a fuzz target's time bound that Go's
	// fuzzer gets in the hybrid phase (explore.Raise.Fuzz; 0: none).
	FuzzShare  float64
	Auto       bool          // automatic targets for packages that have PUTs too
	NoMocks    bool          // interface inputs get no generated mock types (-mocks=false)
	MockCalls  int           // scripted calls per mock method (0: load.DefaultMockCalls)
	MaxMemory  int64         // bytes of data per worker process; 0: no bound
	Workers    int           // worker processes per target
	RunTimeout time.Duration // bound on one run; 0: none
	Explore    explore.Config
	// Budget bounds the whole run (budget.go): its targets share it, each
	// within Explore.MaxTime; 0: none, each target runs to its own
	// bounds.
	Budget time.Duration
	// Isolate is the isolation sandbox's policy (docs/isolate.md): by
	// default the calls of code under test that may reach the
	// environment are isolated.
	Isolate isolate.Config

	// Cache keeps each target's result between runs (nil: none): a
	// target whose key (key.go) is unchanged is not explored again; its
	// generated rows are kept as they are and its summary is replayed.
	Cache *cache.Cache

	// Stderr receives diagnostics (warnings, build failures) and, if
	// Verbose, progress.
	Stderr  io.Writer
	Verbose bool
}

// Result is what happened to one target: everything the pipeline knows
// of it once its package's files are written.
type Result struct {
	Package *load.Package
	Target  *load.Target
	// Report is the exploration's, nil if the target was not explored.
	Report *explore.Report
	// Err says why the target was not explored, or why its tests could
	// not be written.
	Err error
	// Rows are the rows written for it, Tests how many of them the file
	// holds (rows emit could not write are left out).
	Rows []emit.Row
	// Literals are the inputs of Rows as the generated test writes them
	// (emit.Literals), for the HTML report.
	Literals [][]string
	Tests    int
	// Isolated counts the rows of Tests that are in the isolated file:
	// they made isolated calls and replay sandbox values (dowse test).
	Isolated int
	// Files are the generated files holding its rows; Changed those of
	// them this run created or rewrote.
	Files   []string
	Changed []string
	// FailureTest names the generated test reproducing its failures.
	FailureTest string
	// Kept are the case names of failing rows an earlier run wrote that
	// this run did not find again, kept in the failures table; Dropped
	// those removed, as they passed when run again (docs/emit.md).
	Kept, Dropped []string
	// Behaviour are the rows of an automatic target whose expectations
	// changed from the file this run replaced.
	Behaviour []emit.Change
	// Mocks are the generated mock types its rows use (docs/mocks.md).
	Mocks []string
	// Summary is the result as dowse gen reports it (text or JSON).
	Summary *output.Target
	// Cached says that the target was not explored: its key was in the
	// cache, whose entry holds Summary, Files, Tests and FailureTest
	// (Report and Rows are nil; the rows are those on disk).
	Cached bool
	// Resumed is, for a target an earlier run's budget cut short, where
	// that run left it (from the cache): this run's search continued it.
	Resumed *explore.Resume
	// Share is the time the whole-run budget first gave the target, and
	// Passes the searches it got (more than one when targets that ended
	// early left time to explore it further); both 0 without a budget.
	Share  time.Duration
	Passes int
}

// Handler receives the result of every selected target, in the order of
// the packages and of their targets, once the package's files are
// written. An error stops the run.
type Handler interface {
	Target(r *Result) error
}

// Output returns a Handler that hands each target's summary to h.
func Output(h output.Handler) Handler { return outputHandler{h} }

type outputHandler struct{ h output.Handler }

func (o outputHandler) Target(r *Result) error { return o.h.Target(r.Summary) }

// Stats counts what a run found.
type Stats struct {
	Errors   int // targets not explored or not written, builds that failed
	Findings int // bugs found: causes of failures, those listed apart aside (output.Finding)
	// Removed are the stale generated files removed: their targets are
	// all gone.
	Removed []string
}

// Run loads the packages the patterns name, explores their selected
// targets, writes their tests and hands each target's result to h. The
// error is one that stops the whole run: the work directory, the
// packages do not load or compile (load.IsCompileError; nothing was
// written), or h failed. A stopped run (ctx done) ends with the package
// being explored, which gets the files of what was found so far.
func Run(ctx context.Context, cfg Config, patterns []string, h Handler) (Stats, error) {
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	r := &runner{cfg: cfg, h: h}
	err := r.run(ctx, patterns)
	return r.stats, err
}

// runner is one run of the pipeline.
type runner struct {
	cfg Config
	h   Handler
	cwd string

	instrumenter *build.SourceInstrumenter // shared by the builds of one load
	plan         *isolate.Plan             // the isolation sandbox (nil: off)
	isolateTime  time.Duration             // the effect analysis and the plan
	goTmp        string                    // GOTMPDIR of the go commands, in the work directory
	goCacheOnce  sync.Once
	goCacheDir   string

	sched   *scheduler      // the whole-run budget (nil: none)
	keys    *keyer          // nil: no result cache
	changed map[string]bool // files written by this run in the package being run
	// mocksBefore holds the mock files of the package being run as they
	// were before it declared every mock type ahead of the test files.
	mocksBefore map[string]fileState
	puts        int // cache entries written

	stats Stats
	track tracker // where the run is (progress.go)
}

func (g *runner) logf(format string, args ...any) {
	if g.cfg.Verbose {
		fmt.Fprintf(g.cfg.Stderr, format+"\n", args...)
	}
}

// notef writes a note about the user's files.
func (g *runner) notef(format string, args ...any) {
	fmt.Fprintf(g.cfg.Stderr, "dowse gen: "+format+"\n", args...)
}

// warnf writes a diagnostic.
func (g *runner) warnf(format string, args ...any) {
	fmt.Fprintf(g.cfg.Stderr, "dowse gen: "+format+"\n", args...)
}

func (g *runner) run(ctx context.Context, patterns []string) error {
	start := time.Now()
	g.cwd = g.cfg.Dir
	if g.cwd == "" {
		g.cwd, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(g.cwd); err == nil {
		g.cwd = abs
	}
	var buildFlags []string
	if g.cfg.Tags != "" {
		buildFlags = []string{"-tags=" + g.cfg.Tags}
	}
	work, err := build.NewWork(g.cfg.KeepWork)
	if err != nil {
		return err
	}
	defer func() {
		if err := work.Close(); err != nil {
			g.warnf("%v", err)
		}
		if work.Kept() {
			g.warnf("work directory: %s", work.Dir)
		}
	}()
	// go commands stopped by a signal leave their temporary directories
	// behind: they get GOTMPDIR in the work directory.
	goTmp, err := work.GoTmpDir()
	if err != nil {
		return err
	}
	g.goTmp = goTmp
	loadFlags := buildFlags
	if len(g.cfg.Instrument) > 0 {
		modFile, err := g.prepareOthers(ctx, work, buildFlags, patterns)
		if err != nil {
			return fmt.Errorf("-instrument: %w", err)
		}
		loadFlags = append(buildFlags[:len(buildFlags):len(buildFlags)], "-modfile="+modFile)
	}

	g.track.start, g.track.maxTimeBound = time.Now(), g.cfg.Explore.MaxTime
	g.step(output.PhaseLoad, "", "")
	g.logf("loading %s", strings.Join(patterns, " "))
	// -unit's packages are rewritten (isolated) and instrumented in the
	// binaries of the packages that import them: their syntax is needed.
	deps := g.cfg.InstrumentModule || len(g.cfg.Instrument) > 0 || len(g.cfg.Isolate.Unit) > 0 && !g.cfg.Isolate.Off
	pkgs, warnings, err := load.Load(load.Config{Context: ctx, Env: append(os.Environ(), "GOTMPDIR="+g.goTmp), Dir: g.cwd, BuildFlags: loadFlags, Deps: deps, Auto: g.cfg.Auto, NoMocks: g.cfg.NoMocks, MockCalls: g.cfg.MockCalls}, patterns...)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return err
	}
	for _, w := range warnings {
		g.warnf("%s", w)
	}
	if g.cfg.Cache != nil {
		if g.keys, err = newKeyer(ctx, g.cfg, g.cwd, loadFlags, patterns); err != nil {
			g.warnf("warning: results are not cached: %v", err)
		} else if g.cfg.Corpus {
			g.keys.fuzz = func(p *load.Package, t *load.Target) []string {
				return g.corpusDirs(p, t)[1:] // the package's own corpus is in its directory
			}
		}
	}

	// One instrumenter for the whole load: a package of the module that
	// goes into several binaries is rewritten once.
	g.instrumenter = &build.SourceInstrumenter{Stderr: g.cfg.Stderr}
	if !g.cfg.Isolate.Off {
		start := time.Now()
		g.plan, err = g.isolation(pkgs, loadFlags)
		if err != nil {
			return err
		}
		g.isolateTime = time.Since(start)
		g.instrumenter.Sandbox = g.plan
	}
	if g.cfg.Shard.Count > 1 {
		pkgs = g.shardOf(pkgs)
	}
	if g.cfg.Budget > 0 {
		g.sched = newScheduler(start, g.cfg.Budget, g.countTargets(pkgs))
	}
	for _, p := range pkgs {
		n := 0
		for _, t := range p.Targets {
			if g.cfg.Run == nil || g.cfg.Run.MatchString(t.Name) {
				n++
			}
		}
		g.track.total += n
		if n > 0 {
			g.track.pkgs++
		}
	}
	if g.sched != nil {
		g.track.deadline = g.sched.deadline
	}
	for _, p := range pkgs {
		if err := g.pkg(ctx, work, buildFlags, p); err != nil {
			return err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if g.puts > 0 {
		if err := g.cfg.Cache.Trim(); err != nil {
			g.warnf("warning: %v", err)
		}
	}
	return nil
}

// shardOf returns the packages of this run's shard (-shard): the
// assignment depends only on the packages and their numbers of targets,
// which every shard loads alike.
func (g *runner) shardOf(pkgs []*load.Package) []*load.Package {
	units := make([]shard.Unit, len(pkgs))
	for i, p := range pkgs {
		units[i] = shard.Unit{Path: p.Path, Targets: len(p.Targets)}
	}
	var mine []*load.Package
	for i, s := range shard.Assign(units, g.cfg.Shard.Count) {
		if s == g.cfg.Shard.Index {
			mine = append(mine, pkgs[i])
		}
	}
	g.logf("shard %d/%d: %d of %d packages", g.cfg.Shard.Index, g.cfg.Shard.Count, len(mine), len(pkgs))
	return mine
}

// prepareOthers makes the packages of other modules that -instrument
// names instrumentable: it finds their modules among the dependencies of
// the packages to explore, copies those in the module cache into the
// work directory and writes the work go.mod replacing them by the copies.
// It returns the go.mod to load with.
func (g *runner) prepareOthers(ctx context.Context, work *build.Work, buildFlags, patterns []string) (string, error) {
	// The copies replace the modules in a work go.mod passed with
	// -modfile, which workspace mode refuses.
	if gowork, err := build.Workspace(ctx, nil, g.cwd); err != nil {
		return "", err
	} else if gowork != "" {
		return "", fmt.Errorf("not supported in a go.work workspace (%s): run with GOWORK=off in a module that builds on its own", gowork)
	}
	gomod, cache, err := build.ModuleEnv(ctx, g.cwd, nil)
	if err != nil {
		return "", err
	}
	// The copies are replaced in the work go.mod, which vendor mode
	// does not allow (go.mod must match vendor/modules.txt).
	if vendored, err := build.Vendored(ctx, nil, filepath.Dir(gomod), gomod); err != nil {
		return "", err
	} else if vendored {
		return "", errors.New("not supported in vendor mode (the module has a vendor directory, or GOFLAGS has -mod=vendor): run with GOFLAGS=-mod=mod to build from the module cache")
	}
	mods, unmatched, err := build.FindModules(ctx, g.cwd, nil, buildFlags, patterns, g.cfg.Instrument)
	if err != nil {
		return "", err
	}
	for _, u := range unmatched {
		g.warnf("warning: %s", u)
	}
	if err := work.CopyModules(mods, cache); err != nil {
		return "", err
	}
	for _, m := range mods {
		where := "in place"
		if m.Copy != "" {
			where = "a copy of " + m.Path + "@" + m.Version
		}
		g.logf("instrumenting %s (%s)", strings.Join(m.Packages, " "), where)
	}
	if err := work.WriteModule(build.Config{}, gomod, filepath.Dir(gomod)); err != nil {
		return "", err
	}
	return work.GoMod(), nil
}

// pkg explores the selected targets of p, writes their tests and hands
// their results to the handler.
func (g *runner) pkg(ctx context.Context, work *build.Work, buildFlags []string, p *load.Package) error {
	start := time.Now()
	var results []*Result
	selected := map[*load.Target]bool{}
	for _, t := range p.Targets {
		if g.cfg.Run != nil && !g.cfg.Run.MatchString(t.Name) {
			continue
		}
		selected[t] = true
		results = append(results, &Result{Package: p, Target: t, Err: t.Err})
	}
	g.changed = map[string]bool{}
	g.mocksBefore = map[string]fileState{}
	if len(results) == 0 {
		if ctx.Err() == nil {
			g.removeStale(p)
			g.writeMocks(p, nil, false) // the removed files may have used some
		}
		return nil
	}
	g.packageBegins()
	pkgKey := g.pkgKey(p)
	cached := map[*Result]*entry{}
	var runnable []*load.Target
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		if e := g.lookup(pkgKey, r); e != nil {
			if e.Resume != nil {
				// Cut short by an earlier run's budget: explored again,
				// from where it stopped.
				if res, err := e.Resume.decode(); err == nil {
					r.Resumed = res
				}
			} else {
				cached[r] = e
				r.Cached = true
				continue
			}
		}
		runnable = append(runnable, r.Target)
	}
	g.skipped(len(cached))
	if g.sched != nil {
		g.sched.skip(len(cached))
	}

	var bin *build.Binary
	var buildTime time.Duration
	if len(runnable) > 0 {
		g.logf("building %s", p.Path)
		g.step(output.PhaseBuild, p.Path, "")
		start := time.Now()
		var err error
		bin, err = work.Build(ctx, build.Config{
			BuildFlags:       buildFlags,
			Instrumenter:     g.instrumenter,
			InstrumentModule: g.cfg.InstrumentModule,
			Instrument:       g.cfg.Instrument,
			Unit:             g.unitPatterns(),
		}, p, runnable)
		buildTime = time.Since(start)
		if err != nil && ctx.Err() != nil {
			bin = nil // stopped while building: the targets report why below
		} else if err != nil {
			g.warnf("%v", err)
			for _, r := range results {
				if r.Err == nil {
					r.Err = errors.New("the instrumented package did not build (a bug in dowse; see the error above)")
				}
			}
			bin = nil
		} else if bin.RunDirWarning != "" {
			g.warnf("warning: %s", bin.RunDirWarning)
		}
	}
	var todo []*Result
	for _, r := range results {
		if r.Cached {
			continue
		}
		if r.Err != nil || bin == nil || ctx.Err() != nil {
			if r.Err == nil {
				r.Err = context.Cause(ctx)
			}
			g.skipped(1)
			continue
		}
		todo = append(todo, r)
	}
	if g.sched != nil {
		g.sched.skip(len(runnable) - len(todo))
		g.exploreBudgeted(ctx, p, bin, buildTime, todo)
	} else {
		for _, r := range todo {
			if ctx.Err() != nil {
				r.Err = context.Cause(ctx)
				continue
			}
			r.Report, r.Err = g.explore(ctx, bin, r.Target, g.cfg.Explore, r.Resumed, g.exploring(p, r.Target, bin), branchSet(bin.Sites))
			g.explored(r, bin, false)
		}
	}
	g.step(output.PhaseWrite, p.Path, "")

	// A stopped run still writes what it found: the rows of the targets
	// explored, the one stopped included (its rows are runs that
	// finished). Their confirmation goes on for at most
	// stoppedVerifyTimeout after the stop, whenever it comes; rows it
	// cannot confirm put the files back.
	vctx, cancelVerify := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelVerify()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(stoppedVerifyTimeout, cancelVerify) })()
	if ctx.Err() != nil && anyExplored(results) {
		g.warnf("%s: %v; writing the rows found so far", p.Path, context.Cause(ctx))
	}
	// The files are written under procgroup.Hold, so that a second signal
	// (procgroup.Exit) never ends the process in the middle of a write; the
	// confirmation, which runs go test, is not held.
	release := procgroup.Hold()
	var verify verifier
	var rerun rerunner
	if bin != nil {
		verify = func(tests []string) (map[string][]string, error) {
			release()
			defer func() { release = procgroup.Hold() }()
			failing, err := work.FailingSubtests(vctx, build.Config{BuildFlags: buildFlags}, p, bin.RunDir, tests)
			if err != nil && vctx.Err() != nil {
				return nil, errConfirmStopped
			}
			return failing, err
		}
		rerun = func(test string, subs []string) ([]string, error) {
			release()
			defer func() { release = procgroup.Hold() }()
			return work.PassingSubtests(vctx, build.Config{BuildFlags: buildFlags}, p, bin.RunDir, test, subs, []string{emit.ReproduceEnv + "=1"})
		}
	}
	g.emit(p, results, selected, verify, rerun)
	release()
	// The keys of the results to keep: with the package's files as this
	// run left them.
	// A stopped run keeps them too: what its targets found is written,
	// and those the stop cut short are continued by the next run.
	var postKey []byte
	if pkgKey != nil {
		postKey = g.pkgKey(p)
	}

	for _, r := range results {
		if e := cached[r]; e != nil {
			g.replay(r, e)
			g.stats.Findings += findings(r.Summary)
			if postKey != nil && !bytes.Equal(postKey, pkgKey) {
				g.store(postKey, r, e) // still right with the files as they are now
			}
			if err := g.h.Target(r); err != nil {
				return err
			}
			continue
		}
		opts := output.Options{MaxLen: g.cfg.MaxLen, Dir: g.cwd, Files: r.Files, Changed: r.Changed, Tests: r.Tests, FailureTest: r.FailureTest, Mocks: r.Mocks, KeptFailures: r.Kept, DroppedFailures: r.Dropped}
		for _, c := range r.Behaviour {
			opts.BehaviourChanged = append(opts.BehaviourChanged, output.BehaviourChange{Case: c.Case, Old: c.Old, New: c.New})
		}
		opts.Isolation = g.isolationReport(p, r, buildTime)
		opts.Share, opts.Passes = r.Share, r.Passes
		if bin != nil {
			opts.Sites = bin.Sites
		}
		opts.RowInputs = rowInputs(r)
		sum := output.NewTarget(p.Path, r.Target, r.Report, opts)
		switch {
		case r.Err != nil && r.Target.Kind.Auto() && r.Target.Err != nil && r.Report == nil:
			// An exported function with inputs dowse cannot build yet.
			sum.Skipped = r.Err.Error()
		case r.Err != nil:
			sum.Error = r.Err.Error()
			g.stats.Errors++
		default:
			g.stats.Findings += findings(sum)
		}
		if postKey != nil && r.Report != nil && len(r.Report.Errors) == 0 {
			if e := resultEntry(r, sum); e != nil {
				g.store(postKey, r, e)
			}
		}
		r.Summary = sum
		if err := g.h.Target(r); err != nil {
			return err
		}
	}
	g.packageEnds()
	return g.packageDone(p.Path, time.Since(start))
}

// resultEntry is what the result cache keeps of r, explored, with
// summary sum: a target the budget or the run's stop cut short is kept
// as where to continue from (the next run explores it again from there
// instead of replaying it), even if its rows could not be written, as
// the files are then those the next run sees; one that completed is kept
// to be replayed if its rows were written. Nil: nothing to keep.
func resultEntry(r *Result, sum *output.Target) *entry {
	switch r.Report.StopReason {
	case explore.ReasonBudget, explore.ReasonCanceled:
		res := explore.ResumeAfter(r.Report)
		if res == nil {
			return nil // stopped before it had found anything again
		}
		return &entry{Summary: sum, Files: r.Files, Tests: r.Tests, FailureTest: r.FailureTest, Resume: encodeResume(res)}
	}
	if r.Err != nil {
		return nil
	}
	return &entry{Summary: sum, Files: r.Files, Tests: r.Tests, FailureTest: r.FailureTest}
}

// sandboxLabels names the isolated call sites of a target in its input
// text by their callees ("os.ReadFile"), with the site's key after the
// name when the target has several sites of one callee.
func sandboxLabels(sites []load.SandboxParam) map[string]string {
	if len(sites) == 0 {
		return nil
	}
	count := map[string]int{}
	for _, sp := range sites {
		count[sp.Callee]++
	}
	labels := map[string]string{}
	for _, sp := range sites {
		label := sp.Callee
		if label == "" || count[sp.Callee] > 1 {
			label = strings.TrimPrefix(label+"@"+sp.Key, "@")
		}
		labels["iso:"+sp.Key] = label
	}
	return labels
}

// anyExplored reports whether a target of results was explored, if only
// in part.
func anyExplored(results []*Result) bool {
	for _, r := range results {
		if r.Report != nil {
			return true
		}
	}
	return false
}

// findings counts the findings of a summary that are bugs: causes of
// failures not listed apart (output.Finding.Apart).
func findings(sum *output.Target) int {
	n := len(sum.KeptFailures)
	for _, f := range sum.Findings {
		if f.Apart == "" {
			n++
		}
	}
	return n
}

// explore explores one target on workers of bin with the bounds of cfg,
// continuing the search resume (nil: from the start), handing its live
// counts, of the outcomes of the sites counted, to progress.
func (g *runner) explore(ctx context.Context, bin *build.Binary, t *load.Target, cfg explore.Config, resume *explore.Resume, progress func(explore.Counts), counted func(uint32) bool) (*explore.Report, error) {
	cmd, ok := bin.Worker(t)
	if !ok {
		return nil, fmt.Errorf("%s: the worker binary does not serve it", t.Name)
	}
	g.logf("exploring %s", t.Name)
	if g.cfg.MaxMemory > 0 {
		cmd.Env = append(cmd.Env, rt.EnvMaxMemory+"="+strconv.FormatInt(g.cfg.MaxMemory, 10))
	}
	raise := explore.Raise{From: g.cfg.MaxLen, Cap: g.cfg.LenCap, Start: func(maxLen int) (explore.Executor, func(), error) {
		load.SetBounds(t.Layout, maxLen)
		pool := explore.NewPool(explore.Command(cmd), t.Name, t.Layout, g.cfg.Workers, g.cfg.RunTimeout)
		return pool, func() { pool.Close() }, nil
	}}
	seeds := t.Seeds
	if t.Kind == load.KindFuzz && g.cfg.Corpus {
		seeds = append(slices.Clip(seeds), g.corpusSeeds(bin.Package, t)...)
	}
	target := explore.Target{Name: t.Name, Seeds: seeds, Regression: t.Kind.Auto(), Fuzz: t.Kind == load.KindFuzz}
	target.Labels = sandboxLabels(t.Sandbox)
	if resume != nil {
		target = resume.Target(target)
		// The bound it had raised to, if it had.
		raise.From = max(raise.From, min(resume.MaxLen, raise.Cap))
	}
	if t.Kind == load.KindFuzz && explore.Hybrid(cfg.MaxTime, g.cfg.FuzzShare) {
		if len(t.Sandbox) > 0 {
			// Go's fuzzer would run the target's isolated calls for real.
			g.logf("%s: no go test -fuzz phase: the target reaches isolated calls", t.Name)
		} else {
			fz := g.startFuzzer(ctx, bin.Package, t)
			defer fz.close()
			raise.Fuzz, raise.FuzzShare = fz.fuzz, g.cfg.FuzzShare
			if g.cfg.LenCap > g.cfg.MaxLen {
				// A bound that may be raised may be raised to fit what
				// the fuzzer found; a bound the user fixed stays.
				raise.FuzzedCap = maxFuzzedLen
			}
		}
	}
	solver, closeSolver := newSolver(cfg.SolverTimeout)
	defer closeSolver()
	cfg.Progress, cfg.Counted = progress, counted
	rep, err := explore.ExploreRaising(ctx, cfg, target, raise, solver)
	if err != nil {
		return rep, err
	}
	if ctx.Err() != nil {
		// The run's stop ended the search, whatever bound it names.
		rep.Canceled()
	}
	if resume == nil {
		return rep, nil
	}
	if rep.MaxLen > g.cfg.MaxLen {
		rep.RaisedFrom = g.cfg.MaxLen
	}
	resume.Into(rep)
	return rep, nil
}

// countTargets counts the selected targets of pkgs that may be explored.
func (g *runner) countTargets(pkgs []*load.Package) int {
	n := 0
	for _, p := range pkgs {
		for _, t := range p.Targets {
			if t.Err == nil && (g.cfg.Run == nil || g.cfg.Run.MatchString(t.Name)) {
				n++
			}
		}
	}
	return n
}

// stoppedVerifyTimeout bounds the confirmation of the rows written by a
// stopped run (docs/architecture.md, "Exit status").
const stoppedVerifyTimeout = 30 * time.Second

// maxFuzzedLen is the longest string or byte slice of Go's fuzzer's inputs
// that a fuzz target's length bound is raised to fit.
const maxFuzzedLen = 1024

// hybridFuzzer is Go's fuzzer for one fuzz target, built in the
// background while the concolic search runs (gofuzz).
type hybridFuzzer struct {
	t       *load.Target
	built   chan struct{}
	fz      *gofuzz.Fuzzer
	err     error
	logf    func(format string, args ...any)
	workers int // processes of the fuzzer (0: its default, GOMAXPROCS)
}

func (g *runner) startFuzzer(ctx context.Context, p *load.Package, t *load.Target) *hybridFuzzer {
	h := &hybridFuzzer{t: t, built: make(chan struct{}), logf: g.logf, workers: g.cfg.Workers}
	go func() {
		defer close(h.built)
		h.fz, h.err = gofuzz.Build(ctx, p.Dir, t.Name, []string{"GOTMPDIR=" + g.goTmp})
	}()
	return h
}

// fuzz is explore.Raise.Fuzz: it seeds Go's fuzzer with the passing
// inputs, encoded as corpus files of the target's parameters.
func (h *hybridFuzzer) fuzz(ctx context.Context, leaves []rt.Leaf, passing [][]rt.Value, d time.Duration) ([][]any, error) {
	waited := time.Now()
	select {
	case <-h.built:
	case <-time.After(d):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if d -= time.Since(waited); d < time.Second {
		return nil, errors.New("go test -c -fuzz was not done building in the time left")
	}
	if h.err != nil {
		return nil, h.err
	}
	var seeds [][]byte
	for _, in := range passing {
		if len(in) != len(leaves) {
			continue
		}
		if f, err := emit.CorpusFile(h.t.Params, h.t.Layout, in); err == nil {
			seeds = append(seeds, f)
		}
	}
	h.logf("%s: go test -fuzz for %v from %d inputs", h.t.Name, d.Round(time.Millisecond), len(seeds))
	res, err := h.fz.Run(ctx, seeds, d, h.workers)
	if res == nil {
		return nil, err
	}
	var found [][]any
	for _, data := range append(res.Crashers, res.Interesting...) {
		if v, perr := load.ParseCorpusFile(data); perr == nil {
			found = append(found, v)
		}
	}
	return found, err
}

func (h *hybridFuzzer) close() {
	go func() {
		<-h.built
		if h.fz != nil {
			h.fz.Close()
		}
	}()
}

// corpusSeeds reads the seeds of fuzz target t that go test -fuzz would
// start from: the package's testdata/fuzz/<target> directory (dowse's own
// corpus files from earlier runs included) and the go command's fuzz cache
// for the target. Unreadable corpora are reported and skipped.
func (g *runner) corpusSeeds(p *load.Package, t *load.Target) [][]any {
	var seeds [][]any
	for _, d := range g.corpusDirs(p, t) {
		s, err := load.ReadCorpus(d)
		if err != nil {
			g.warnf("warning: %s: %v", t.Name, err)
		}
		seeds = append(seeds, s...)
	}
	return seeds
}

// corpusDirs are the directories fuzz target t is seeded from.
func (g *runner) corpusDirs(p *load.Package, t *load.Target) []string {
	dirs := []string{filepath.Join(p.Dir, "testdata", "fuzz", t.Name)}
	if cache := g.goCache(); cache != "" {
		dirs = append(dirs, filepath.Join(cache, "fuzz", p.Path, t.Name))
	}
	return dirs
}

// goCache is the go command's GOCACHE, or "" if it cannot be found.
func (g *runner) goCache() string {
	g.goCacheOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err == nil {
			g.goCacheDir = strings.TrimSpace(string(out))
		}
	})
	return g.goCacheDir
}
