package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/shard"
	"github.com/dowse-go/dowse/internal/solver"
	"github.com/dowse-go/dowse/rt"
)

func init() {
	commands["gen"] = command{summary: "explore targets and write generated tests", run: runGen}
}

// Exit codes of dowse gen.
const (
	exitOK       = 0 // tests generated, no failure found
	exitError    = 1 // the packages do not compile, or a target could not be explored or emitted
	exitUsage    = 2
	exitFindings = 3 // tests generated, and a target failed on some input
	// exitInterrupted is the status of a run stopped by an interrupt
	// (128 + SIGINT, as a shell reports it): nothing was written for the
	// package being explored.
	exitInterrupted = 130
)

// genConfig is what the flags of dowse gen say.
type genConfig struct {
	dir              string
	tags             string
	json             bool
	verbose          bool
	run              *regexp.Regexp
	instrumentModule bool
	instrument       []string   // -instrument: package patterns of other modules
	shard            shard.Spec // -shard: the part of the packages this run explores
	corpus           bool       // seed fuzz targets from testdata/fuzz and the fuzz cache
	keepWork         bool
	maxLen           int
	lenCap           int
	auto             bool
	maxMemory        int64 // bytes of heap per worker process; 0: no bound
	workers          int
	runTimeout       time.Duration
	explore          explore.Config
}

func runGen(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return genMain(ctx, args, os.Stdout, os.Stderr)
}

func genMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, patterns, code := parseGenFlags(args, stderr)
	if code >= 0 {
		return code
	}
	g := &generator{cfg: cfg, stderr: stderr}
	if cfg.json {
		g.out = output.NewJSONHandler(stdout)
	} else {
		g.out = output.NewTextHandler(stdout, cfg.verbose)
	}
	return g.main(ctx, patterns)
}

// parseGenFlags parses the flags; code is the exit code if the command
// should end now, -1 otherwise.
func parseGenFlags(args []string, stderr io.Writer) (cfg genConfig, patterns []string, code int) {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		run    = fs.String("run", "", "explore only the targets whose names match `regexp`")
		search = fs.String("search", string(explore.Generational), "search `strategy`: generational, dfs, bfs or random")
	)
	fs.StringVar(&cfg.dir, "C", "", "run in `dir` (inside the module to explore)")
	fs.StringVar(&cfg.tags, "tags", "", "comma-separated build tags")
	fs.BoolVar(&cfg.json, "json", false, "write one JSON object per target to standard output")
	fs.BoolVar(&cfg.verbose, "v", false, "report progress on standard error and list every failure and unsolved branch")
	fs.IntVar(&cfg.explore.MaxRuns, "max-runs", 10000, "bound on the runs per target (0: none)")
	fs.IntVar(&cfg.explore.MaxBranches, "max-branches", 10000, "bound on the branches recorded per run (0: none)")
	fs.DurationVar(&cfg.explore.MaxTime, "max-time", time.Minute, "bound on the exploration time per target (0: none)")
	fs.DurationVar(&cfg.explore.SolverTimeout, "solver-timeout", 5*time.Second, "bound on the time of one solver query")
	fs.IntVar(&cfg.maxLen, "max-len", 10, "bound on the length of string and slice inputs")
	fs.IntVar(&cfg.lenCap, "len-cap", 64, "raise the length bound up to this when seeds, or branches the search cannot reach within it, need longer strings or slices (at most -max-len: never; an explicit -max-len alone is never raised)")
	fs.Int64Var(&cfg.maxMemory, "max-memory", 2<<30, "bound on the memory (bytes of data) of each worker process; a run that exceeds it ends its worker (0: none)")
	fs.DurationVar(&cfg.runTimeout, "run-timeout", 10*time.Second, "bound on the time of one run (0: none)")
	fs.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "worker processes per target")
	fs.Int64Var(&cfg.explore.Seed, "seed", 1, "seed of the random choices (random search)")
	mutate := fs.Bool("mutate", true, "when the concolic search has nothing left to expand but the target is not exhaustive, mutate the inputs found, as a fuzzer does, until -max-time or a plateau")
	fs.BoolVar(&cfg.explore.RowPerPath, "row-per-path", false, "write a test row for every distinct passing path (default: rows that reach every branch outcome, and every failure)")
	fs.BoolVar(&cfg.instrumentModule, "instrument-module", false, "also instrument the other packages of the module that the tests import")
	shardFlag := fs.String("shard", "0/1", "explore only shard `i/n` (0 <= i < n) of the packages (a CI fan-out: every shard loads the same packages and writes disjoint files)")
	instrumentOthers := fs.String("instrument", "", "also instrument the packages of other modules that match these comma-separated `patterns` (e.g. golang.org/x/mod/...), copied into the work directory")
	fs.BoolVar(&cfg.auto, "auto", false, "also explore every exported function and method of packages that have PUTs or fuzz targets (packages without any always get them)")
	fs.BoolVar(&cfg.corpus, "corpus", true, "start fuzz targets from their testdata/fuzz corpus and the go command's fuzz cache, as go test -fuzz does")
	fs.BoolVar(&cfg.keepWork, "keep-work", false, "keep the work directory and print its path")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dowse gen [flags] [packages]")
		fmt.Fprintln(stderr, `
Explores the parameterized unit tests (func PutXxx(t *testing.T, ...)) and
fuzz targets of the packages by concolic execution and writes a generated
_test.go file (and fuzz corpus files) next to each test file that declares
them. The packages' own files are never modified.

Exit status: 0 if no target failed, 3 if a target failed on some input
(the failing inputs are written too), 1 if the packages do not compile or a
target could not be explored or written, 2 for usage errors.

flags:`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, nil, exitOK
		}
		return cfg, nil, exitUsage
	}
	// A bound the user chose is the bound, unless the user also chose a
	// cap to raise it to.
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["max-len"] && !set["len-cap"] {
		cfg.lenCap = cfg.maxLen
	}
	usage := func(format string, args ...any) (genConfig, []string, int) {
		fmt.Fprintf(stderr, "dowse gen: "+format+"\n", args...)
		return cfg, nil, exitUsage
	}
	for _, p := range strings.Split(*instrumentOthers, ",") {
		if p = strings.TrimSpace(p); p != "" {
			cfg.instrument = append(cfg.instrument, p)
		}
	}
	spec, err := shard.Parse(*shardFlag)
	if err != nil {
		return usage("-shard: %v", err)
	}
	cfg.shard = spec
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			return usage("-run: %v", err)
		}
		cfg.run = re
	}
	cfg.explore.NoMutation = !*mutate
	cfg.explore.Strategy = explore.Strategy(*search)
	if !knownStrategy(cfg.explore.Strategy) {
		return usage("-search: unknown strategy %q (want generational, dfs, bfs or random)", *search)
	}
	switch {
	case cfg.maxLen < 0:
		return usage("-max-len must not be negative")
	case cfg.workers < 1:
		return usage("-workers must be at least 1")
	case cfg.explore.MaxRuns < 0, cfg.explore.MaxBranches < 0, cfg.explore.MaxTime < 0,
		cfg.explore.SolverTimeout < 0, cfg.runTimeout < 0:
		return usage("bounds must not be negative")
	}
	return cfg, fs.Args(), -1
}

func knownStrategy(s explore.Strategy) bool {
	for _, k := range explore.Strategies {
		if k == s {
			return true
		}
	}
	return false
}

// generator runs dowse gen.
type generator struct {
	cfg    genConfig
	stderr io.Writer
	out    output.Handler
	cwd    string

	instrumenter *build.SourceInstrumenter // shared by the builds of one load
	goCacheOnce  sync.Once
	goCacheDir   string

	errors   int // targets not explored or not written, builds that failed
	findings int // failures found
}

func (g *generator) logf(format string, args ...any) {
	if g.cfg.verbose {
		fmt.Fprintf(g.stderr, format+"\n", args...)
	}
}

func (g *generator) main(ctx context.Context, patterns []string) int {
	g.cwd = g.cfg.dir
	if g.cwd == "" {
		g.cwd, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(g.cwd); err == nil {
		g.cwd = abs
	}
	var buildFlags []string
	if g.cfg.tags != "" {
		buildFlags = []string{"-tags=" + g.cfg.tags}
	}
	work, err := build.NewWork(g.cfg.keepWork)
	if err != nil {
		fmt.Fprintf(g.stderr, "dowse gen: %v\n", err)
		return exitError
	}
	defer func() {
		if err := work.Close(); err != nil {
			fmt.Fprintf(g.stderr, "dowse gen: %v\n", err)
		}
		if work.Kept() {
			fmt.Fprintf(g.stderr, "dowse gen: work directory: %s\n", work.Dir)
		}
	}()
	loadFlags := buildFlags
	if len(g.cfg.instrument) > 0 {
		modFile, err := g.prepareOthers(ctx, work, buildFlags, patterns)
		if err != nil {
			fmt.Fprintf(g.stderr, "dowse gen: -instrument: %v\n", err)
			return exitError
		}
		loadFlags = append(buildFlags[:len(buildFlags):len(buildFlags)], "-modfile="+modFile)
	}

	g.logf("loading %s", strings.Join(patterns, " "))
	deps := g.cfg.instrumentModule || len(g.cfg.instrument) > 0
	pkgs, warnings, err := load.Load(load.Config{Dir: g.cwd, BuildFlags: loadFlags, Deps: deps, Auto: g.cfg.auto}, patterns...)
	if err != nil {
		if load.IsCompileError(err) {
			fmt.Fprintf(g.stderr, "dowse gen: the packages do not compile; nothing was written:\n%v\n", err)
		} else {
			fmt.Fprintf(g.stderr, "dowse gen: %v\n", err)
		}
		return exitError
	}
	for _, w := range warnings {
		fmt.Fprintf(g.stderr, "dowse gen: %s\n", w)
	}

	// One instrumenter for the whole load: a package of the module that
	// goes into several binaries is rewritten once.
	g.instrumenter = &build.SourceInstrumenter{}
	if g.cfg.shard.Count > 1 {
		pkgs = g.shardOf(pkgs)
	}
	for _, p := range pkgs {
		if err := g.pkg(ctx, work, buildFlags, p); err != nil {
			fmt.Fprintf(g.stderr, "dowse gen: %v\n", err)
			return exitError
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err := g.out.Flush(); err != nil {
		fmt.Fprintf(g.stderr, "dowse gen: %v\n", err)
		return exitError
	}
	switch {
	case ctx.Err() != nil:
		return exitInterrupted
	case g.errors > 0:
		return exitError
	case g.findings > 0:
		return exitFindings
	}
	return exitOK
}

// shardOf returns the packages of this run's shard (-shard): the
// assignment depends only on the packages and their numbers of targets,
// which every shard loads alike.
func (g *generator) shardOf(pkgs []*load.Package) []*load.Package {
	units := make([]shard.Unit, len(pkgs))
	for i, p := range pkgs {
		units[i] = shard.Unit{Path: p.Path, Targets: len(p.Targets)}
	}
	var mine []*load.Package
	for i, s := range shard.Assign(units, g.cfg.shard.Count) {
		if s == g.cfg.shard.Index {
			mine = append(mine, pkgs[i])
		}
	}
	g.logf("shard %d/%d: %d of %d packages", g.cfg.shard.Index, g.cfg.shard.Count, len(mine), len(pkgs))
	return mine
}

// prepareOthers makes the packages of other modules that -instrument
// names instrumentable: it finds their modules among the dependencies of
// the packages to explore, copies those in the module cache into the
// work directory and writes the work go.mod replacing them by the copies.
// It returns the go.mod to load with.
func (g *generator) prepareOthers(ctx context.Context, work *build.Work, buildFlags, patterns []string) (string, error) {
	mods, unmatched, err := build.FindModules(ctx, g.cwd, nil, buildFlags, patterns, g.cfg.instrument)
	if err != nil {
		return "", err
	}
	for _, u := range unmatched {
		fmt.Fprintf(g.stderr, "dowse gen: warning: %s\n", u)
	}
	cache, err := build.ModCache(ctx, g.cwd, nil)
	if err != nil {
		return "", err
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
	gomod, err := build.MainGoMod(ctx, g.cwd, nil)
	if err != nil {
		return "", err
	}
	if err := work.WriteModule(build.Config{}, gomod, filepath.Dir(gomod)); err != nil {
		return "", err
	}
	return work.GoMod(), nil
}

// result is what happened to one target.
type result struct {
	t       *load.Target
	rep     *explore.Report
	err     error // not explored
	rows    []emit.Row
	tests   int
	files   []string
	changed []string // those of files this run created or rewrote
	failed  string   // the generated test reproducing its failures
}

// pkg explores the selected targets of p and writes their tests.
func (g *generator) pkg(ctx context.Context, work *build.Work, buildFlags []string, p *load.Package) error {
	var results []*result
	selected := map[*load.Target]bool{}
	var runnable []*load.Target
	for _, t := range p.Targets {
		if g.cfg.run != nil && !g.cfg.run.MatchString(t.Name) {
			continue
		}
		selected[t] = true
		r := &result{t: t, err: t.Err}
		results = append(results, r)
		if t.Err == nil {
			runnable = append(runnable, t)
		}
	}
	if len(results) == 0 {
		return nil
	}

	var bin *build.Binary
	if len(runnable) > 0 {
		g.logf("building %s", p.Path)
		var err error
		bin, err = work.Build(ctx, build.Config{
			BuildFlags:       buildFlags,
			Instrumenter:     g.instrumenter,
			InstrumentModule: g.cfg.instrumentModule,
			Instrument:       g.cfg.instrument,
		}, p, runnable)
		if err != nil {
			fmt.Fprintf(g.stderr, "dowse gen: %v\n", err)
			for _, r := range results {
				if r.err == nil {
					r.err = errors.New("the instrumented package did not build (a bug in dowse; see the error above)")
				}
			}
			bin = nil
		} else if bin.RunDirWarning != "" {
			fmt.Fprintf(g.stderr, "dowse gen: warning: %s\n", bin.RunDirWarning)
		}
	}
	for _, r := range results {
		if r.err != nil || bin == nil || ctx.Err() != nil {
			if r.err == nil {
				r.err = context.Cause(ctx)
			}
			continue
		}
		r.rep, r.err = g.explore(ctx, bin, r.t)
	}

	if ctx.Err() == nil {
		var verify verifier
		if bin != nil {
			verify = func(tests []string) (map[string][]string, error) {
				return work.FailingSubtests(ctx, build.Config{BuildFlags: buildFlags}, p, bin.RunDir, tests)
			}
		}
		g.emit(p, results, selected, verify)
	} else {
		fmt.Fprintf(g.stderr, "dowse gen: %s: interrupted; no files written\n", p.Path)
	}

	for _, r := range results {
		opts := output.Options{MaxLen: g.cfg.maxLen, Dir: g.cwd, Files: r.files, Changed: r.changed, Tests: r.tests, FailureTest: r.failed}
		if bin != nil {
			opts.Sites = bin.Sites
		}
		sum := output.NewTarget(p.Path, r.t, r.rep, opts)
		switch {
		case r.err != nil && r.t.Kind.Auto() && r.t.Err != nil && r.rep == nil:
			// An exported function with inputs dowse cannot build yet.
			sum.Skipped = r.err.Error()
		case r.err != nil:
			sum.Error = r.err.Error()
			g.errors++
		default:
			for _, f := range sum.Failures {
				if !f.NilInput && !f.Documented {
					g.findings++
				}
			}
		}
		if err := g.out.Target(sum); err != nil {
			return err
		}
	}
	return nil
}

// explore explores one target on workers of bin.
func (g *generator) explore(ctx context.Context, bin *build.Binary, t *load.Target) (*explore.Report, error) {
	cmd, ok := bin.Worker(t)
	if !ok {
		return nil, fmt.Errorf("%s: the worker binary does not serve it", t.Name)
	}
	g.logf("exploring %s", t.Name)
	if g.cfg.maxMemory > 0 {
		cmd.Env = append(cmd.Env, rt.EnvMaxMemory+"="+strconv.FormatInt(g.cfg.maxMemory, 10))
	}
	raise := explore.Raise{From: g.cfg.maxLen, Cap: g.cfg.lenCap, Start: func(maxLen int) (explore.Executor, func(), error) {
		load.SetBounds(t.Layout, maxLen)
		pool := explore.NewPool(explore.Command(cmd), t.Name, t.Layout, g.cfg.workers, g.cfg.runTimeout)
		return pool, func() { pool.Close() }, nil
	}}
	seeds := t.Seeds
	if t.Kind == load.KindFuzz && g.cfg.corpus {
		seeds = append(slices.Clip(seeds), g.corpusSeeds(bin.Package, t)...)
	}
	target := explore.Target{Name: t.Name, Seeds: seeds, Regression: t.Kind.Auto(), Fuzz: t.Kind == load.KindFuzz}
	solver, closeSolver := newSolver(g.cfg.explore.SolverTimeout)
	defer closeSolver()
	return explore.ExploreRaising(ctx, g.cfg.explore, target, raise, solver)
}

// corpusSeeds reads the seeds of fuzz target t that go test -fuzz would
// start from: the package's testdata/fuzz/<target> directory (dowse's own
// corpus files from earlier runs included) and the go command's fuzz cache
// for the target. Unreadable corpora are reported and skipped.
func (g *generator) corpusSeeds(p *load.Package, t *load.Target) [][]any {
	dirs := []string{filepath.Join(p.Dir, "testdata", "fuzz", t.Name)}
	if cache := g.goCache(); cache != "" {
		dirs = append(dirs, filepath.Join(cache, "fuzz", p.Path, t.Name))
	}
	var seeds [][]any
	for _, d := range dirs {
		s, err := load.ReadCorpus(d)
		if err != nil {
			fmt.Fprintf(g.stderr, "dowse gen: warning: %s: %v\n", t.Name, err)
		}
		seeds = append(seeds, s...)
	}
	return seeds
}

// goCache is the go command's GOCACHE, or "" if it cannot be found.
func (g *generator) goCache() string {
	g.goCacheOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err == nil {
			g.goCacheDir = strings.TrimSpace(string(out))
		}
	})
	return g.goCacheDir
}

// emitRows turns a report into the rows to write: one per distinct path
// that ended in pass, fail or panic, then the runs that ended their worker
// (exit, time-out), which the generated file keeps in its failure table.
// Panic positions are made relative to the module root, so that generated
// files do not depend on where the module is checked out.
func emitRows(rep *explore.Report, root string) []emit.Row {
	var rows []emit.Row
	for _, r := range rep.Rows {
		rows = append(rows, emit.Row{Inputs: r.Inputs, Status: r.Status, Messages: r.Messages, PanicAt: slashRel(root, r.PanicAt), PathCondition: r.PathCondition, Outputs: r.Outputs})
	}
	for _, f := range rep.Failures {
		if f.Row < 0 {
			rows = append(rows, emit.Row{Inputs: f.Inputs, Status: f.Status, Messages: f.Messages, PanicAt: slashRel(root, f.PanicAt), PathCondition: f.PathCondition})
		}
	}
	return rows
}

// slashRel returns the position p relative to dir, with forward slashes,
// if it lies beneath dir.
func slashRel(dir, p string) string {
	return filepath.ToSlash(output.Rel(dir, p))
}

// emit writes the generated file of every test file that declares
// targets. A file is only written if all its targets were selected and
// explored without an error of the machinery, since the generated file is
// replaced as a whole.
func (g *generator) emit(p *load.Package, results []*result, selected map[*load.Target]bool, verify verifier) {
	type fileKey struct {
		external bool
		name     string
	}
	byResult := map[*load.Target]*result{}
	for _, r := range results {
		byResult[r.t] = r
	}
	var keys []fileKey
	files := map[fileKey][]*load.Target{}
	for _, t := range p.Targets {
		k := fileKey{t.External, filepath.Base(t.Pos.Filename)}
		if files[k] == nil {
			keys = append(keys, k)
		}
		files[k] = append(files[k], t)
	}
	var autoFiles []*written // files with rows of automatic targets
	for _, k := range keys {
		// Targets that -run does not select, or that could not be
		// explored, keep what an earlier run generated for them.
		var regen []*load.Target
		var keep []string
		for _, t := range files[k] {
			if r := byResult[t]; !selected[t] || r == nil || r.err != nil && t.Err == nil {
				keep = append(keep, t.Name)
				continue
			}
			regen = append(regen, t)
		}
		if !anyRows(regen, byResult) && len(regen) < len(files[k]) {
			continue // nothing new to write
		}
		if w := g.writeFile(p, k.external, k.name, regen, keep, byResult); w != nil && len(w.res.Cases) > 0 {
			autoFiles = append(autoFiles, w)
		}
	}
	if verify != nil {
		g.confirmRows(autoFiles, byResult, verify)
	}
}

func anyRows(targets []*load.Target, byResult map[*load.Target]*result) bool {
	for _, t := range targets {
		if r := byResult[t]; r != nil && r.rep != nil && (len(r.rep.Rows) > 0 || len(r.rep.Failures) > 0) {
			return true
		}
	}
	return false
}

// A verifier runs generated test functions and returns the subtests that
// failed, by test function.
type verifier func(tests []string) (map[string][]string, error)

// confirmRows runs the rows just written for automatic targets, all the
// package's generated tests together as plain go test would, and rewrites
// the files until they pass: a row whose results differ there (package
// state that other tests change, time, randomness the second run in the
// worker did not show) first keeps its call but no longer compares
// results; a row that still fails (it panics, say) is left out. The rows
// concerned are counted as unstable.
func (g *generator) confirmRows(files []*written, byResult map[*load.Target]*result, verify verifier) {
	for round := 0; round < 2; round++ {
		var tests []string
		for _, w := range files {
			for _, c := range w.res.Cases {
				if !slices.Contains(tests, c.Test) {
					tests = append(tests, c.Test)
				}
			}
		}
		if len(tests) == 0 {
			return
		}
		failing, err := verify(tests)
		if err != nil {
			fmt.Fprintf(g.stderr, "dowse gen: warning: %v\n", err)
			return
		}
		if len(failing) == 0 {
			return
		}
		for _, w := range files {
			byName := map[string]*result{}
			for _, t := range w.targets {
				byName[t.Name] = byResult[t]
			}
			drop := map[*result]map[int]bool{}
			changed := false
			for _, c := range w.res.Cases {
				if !slices.Contains(failing[c.Test], c.Name) {
					continue
				}
				r := byName[c.Target]
				if row := &r.rows[c.Row]; round == 0 && row.Outputs != nil {
					row.Outputs = nil
				} else {
					if drop[r] == nil {
						drop[r] = map[int]bool{}
					}
					drop[r][c.Row] = true
				}
				r.rep.Unstable++
				changed = true
			}
			if !changed {
				continue
			}
			for r, rows := range drop {
				var kept []emit.Row
				for i, row := range r.rows {
					if !rows[i] {
						kept = append(kept, row)
					}
				}
				r.rows = kept
			}
			for i := range w.f.Targets {
				if r := byName[w.f.Targets[i].Name]; r != nil && r.rep != nil {
					w.f.Targets[i].Rows = r.rows
				}
			}
			res, err := emit.Write(w.f, emit.Options{})
			g.finishFile(w.targets, res, err, byResult)
			w.res = res
		}
	}
}

// written is a generated file, kept for rewriting it.
type written struct {
	f       emit.File
	targets []*load.Target
	res     emit.Result
}

func (g *generator) writeFile(p *load.Package, external bool, name string, targets []*load.Target, keep []string, byResult map[*load.Target]*result) *written {
	variant := p.Test
	if external {
		variant = p.XTest
	}
	if variant == nil {
		variant = p.Plain // automatic targets of a package without tests
	}
	f := emit.File{Pkg: variant.Types, Dir: p.Dir, SourceFile: name, Keep: keep}
	for _, t := range targets {
		et := emit.Target{Name: t.Name, Fuzz: t.Kind == load.KindFuzz, Params: t.Params, Layout: t.Layout}
		if t.Kind.Auto() {
			et.Auto, et.Results, et.Method = true, t.Results, t.Kind == load.KindMethod
			et.Call, et.Funcs, et.Restore = t.Expr, t.Funcs, t.Writes
			if et.Method {
				et.Call = t.Expr[strings.LastIndex(t.Expr, ".")+1:]
			}
		}
		if r := byResult[t]; r.rep != nil {
			r.rows = emitRows(r.rep, p.Module.Dir)
			et.Rows = r.rows
		}
		f.Targets = append(f.Targets, et)
	}
	res, err := emit.Write(f, emit.Options{})
	if !g.finishFile(targets, res, err, byResult) {
		return nil
	}
	return &written{f: f, targets: targets, res: res}
}

// finishFile records what writing a file gave each of its targets; it
// reports false if the file could not be written at all.
func (g *generator) finishFile(targets []*load.Target, res emit.Result, err error, byResult map[*load.Target]*result) bool {
	var terrs []*emit.TargetError
	if err != nil {
		var other bool
		if terrs, other = targetErrors(err); other {
			fmt.Fprintf(g.stderr, "dowse gen: %v\n", err)
			g.errors++
			return false
		}
	}
	failed := map[string]error{}
	for _, te := range terrs {
		failed[te.Target] = te.Err
	}
	omitted := map[string]int{}
	for _, o := range res.Omitted {
		omitted[o.Target]++
	}
	for _, t := range targets {
		r := byResult[t]
		if r.rep == nil {
			continue
		}
		if err, ok := failed[t.Name]; ok {
			r.err = fmt.Errorf("explored, but its tests could not be written: %w", err)
			continue
		}
		r.tests = len(r.rows) - omitted[t.Name]
		r.files = targetFiles(t, r, res.Files)
		r.changed = targetFiles(t, r, res.Changed)
		if hasFailureRow(r.rows) {
			r.failed = failureTestName(t)
		}
	}
	return true
}

// targetErrors finds the *emit.TargetError values in err; other reports
// whether err holds anything else.
func targetErrors(err error) (tes []*emit.TargetError, other bool) {
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case *emit.TargetError:
			tes = append(tes, x)
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		case interface{ Unwrap() error }:
			if u := x.Unwrap(); u != nil {
				walk(u)
			} else {
				other = true
			}
		default:
			other = true
		}
	}
	walk(err)
	return tes, other
}

func hasFailureRow(rows []emit.Row) bool {
	for _, r := range rows {
		switch r.Status {
		case rt.StatusFail, rt.StatusPanic, rt.StatusExit, rt.StatusTimeout:
			return true
		}
	}
	return false
}

// failureTestName is the generated test holding t's failing inputs (see
// docs/emit.md).
func failureTestName(t *load.Target) string {
	if t.Kind == load.KindFuzz {
		return "FuzzDowse" + strings.TrimPrefix(t.Name, "Fuzz") + "Failures"
	}
	return "TestDowse" + strings.ReplaceAll(t.Name, ".", "_") + "Failures"
}

// targetFiles picks the files of one target out of the files written for
// its source file: the generated test file if the target has rows, and its
// corpus files.
func targetFiles(t *load.Target, r *result, files []string) []string {
	var out []string
	corpus := []string{
		string(filepath.Separator) + filepath.Join("testdata", "fuzz", t.Name) + string(filepath.Separator),
		string(filepath.Separator) + filepath.Join("testdata", "fuzz", failureTestName(t)) + string(filepath.Separator),
	}
	for _, f := range files {
		switch {
		case strings.HasSuffix(f, ".go"):
			if len(r.rows) > 0 {
				out = append(out, f)
			}
		case t.Kind == load.KindFuzz && (strings.Contains(f, corpus[0]) || strings.Contains(f, corpus[1])):
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// newSolver returns a fresh solver chain (independence slicing, caching,
// Z3) for one target, and the function that frees it.
func newSolver(timeout time.Duration) (explore.Solver, func()) {
	c := solver.New(solver.Config{Options: solver.Options{Timeout: timeout}})
	return chainSolver{c}, c.Close
}

// chainSolver adapts the solver chain to the explorer's interface.
type chainSolver struct{ c *solver.Chain }

func (s chainSolver) Solve(ctx context.Context, q *explore.Query) (explore.Answer, error) {
	r, err := s.c.Solve(ctx, solver.Query{Constraints: q.Conds, Leaves: q.Leaves, Seed: q.Seed, Timeout: q.Timeout})
	if err != nil {
		return explore.Answer{}, err
	}
	a := explore.Answer{Model: r.Model, Cached: r.Cached, TimedOut: r.TimedOut, Why: r.Why}
	switch r.Status {
	case solver.Sat:
		a.Verdict = explore.Sat
	case solver.Unsat:
		a.Verdict = explore.Unsat
	default:
		a.Verdict = explore.Unknown
	}
	return a, nil
}
