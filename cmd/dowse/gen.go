package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/cache"
	"github.com/dowse-go/dowse/internal/engine"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/isolate"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/shard"
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
	// A run stopped by SIGINT or SIGTERM exits with exitInterrupted or
	// exitTerminated (signals.go).
)

// defaultBudget is -budget's default: the time a person waits for a
// run of an ordinary package (docs/architecture.md, "The whole-run
// budget").
const defaultBudget = 5 * time.Minute

// genConfig is what the flags of dowse gen say.
type genConfig struct {
	dir              string
	tags             string
	json             bool
	html             string // -html: write the HTML report to this file
	verbose          bool
	progress         bool // report progress (-progress; progress.go)
	progressEvents   bool // with -json, as events in the stream (-progress given)
	run              *regexp.Regexp
	instrumentModule bool
	instrument       []string   // -instrument: package patterns of other modules
	shard            shard.Spec // -shard: the part of the packages this run explores
	corpus           bool       // seed fuzz targets from testdata/fuzz and the fuzz cache
	keepWork         bool
	cache            bool // read and write the result cache
	maxLen           int
	lenCap           int
	fuzzShare        float64
	auto             bool
	mocks            bool
	mockCalls        int
	maxMemory        int64 // bytes of heap per worker process; 0: no bound
	workers          int
	runTimeout       time.Duration
	budget           time.Duration // -budget: the whole run's; 0: none
	explore          explore.Config
	isolate          isolate.Config // -isolate, -real
}

func runGen(args []string) int {
	ctx, stop := signalContext("gen")
	defer stop()
	return genMain(ctx, args, os.Stdout, os.Stderr)
}

func genMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, patterns, code := parseGenFlags(args, stderr)
	if code >= 0 {
		return code
	}
	out, stderr, done := outputs(cfg, stdout, stderr)
	defer done()
	if err := preflight(cfg.dir, patterns); err != nil {
		fmt.Fprintf(stderr, "dowse gen: %v\n", err)
		streamError(out, err)
		return exitError
	}
	if cfg.html != "" {
		return genHTML(ctx, cfg, patterns, out, stderr)
	}
	return gen(ctx, cfg, patterns, out, stderr)
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
	fs.StringVar(&cfg.html, "html", "", "also write an HTML report to `file` (dowse help output)")
	fs.BoolVar(&cfg.progress, "progress", true, "report progress on standard error, or as -json events (dowse help output)")
	fs.BoolVar(&cfg.verbose, "v", false, "write every target's whole report (dowse help output)")
	fs.DurationVar(&cfg.budget, "budget", defaultBudget, "time budget of the whole run, shared by its targets (dowse help bounds)")
	fs.IntVar(&cfg.explore.MaxRuns, "max-runs", 0, "bound on the runs per target (0: none)")
	fs.IntVar(&cfg.explore.MaxBranches, "max-branches", 10000, "bound on the branches recorded per run (0: none)")
	fs.DurationVar(&cfg.explore.MaxTime, "max-time", time.Minute, "bound on the exploration time per target (0: none)")
	fs.DurationVar(&cfg.explore.SolverTimeout, "solver-timeout", 5*time.Second, "bound on the time of one solver query")
	fs.IntVar(&cfg.maxLen, "max-len", 10, "bound on the length of string and slice inputs")
	fs.Float64Var(&cfg.fuzzShare, "fuzz-share", 0.5, "share of a fuzz target's -max-time given to go test -fuzz (dowse help fuzz)")
	fs.IntVar(&cfg.lenCap, "len-cap", 64, "raise the length bound up to this when inputs need it (dowse help bounds)")
	fs.Int64Var(&cfg.maxMemory, "max-memory", 2<<30, "bound on the data bytes of each worker process (0: none; dowse help bounds)")
	fs.DurationVar(&cfg.runTimeout, "run-timeout", 10*time.Second, "bound on the time of one run (0: none)")
	fs.IntVar(&cfg.workers, "workers", runtime.NumCPU(), "worker processes per target")
	fs.Int64Var(&cfg.explore.Seed, "seed", 1, "seed of the random choices (random search)")
	mutate := fs.Bool("mutate", true, "mutate the inputs found once the concolic search is done (dowse help fuzz)")
	fs.BoolVar(&cfg.explore.RowPerPath, "row-per-path", false, "write a test row for every distinct passing path (dowse help targets)")
	fs.BoolVar(&cfg.instrumentModule, "instrument-module", false, "also instrument the other packages of the module that the tests import")
	shardFlag := fs.String("shard", "0/1", "explore only shard `i/n` (0 <= i < n) of the packages (dowse help targets)")
	instrumentOthers := fs.String("instrument", "", "instrument other modules' packages matching `patterns` too (dowse help isolation)")
	fs.BoolVar(&cfg.mocks, "mocks", true, "offer generated mock types as interface inputs (dowse help mocks)")
	fs.IntVar(&cfg.mockCalls, "mock-calls", load.DefaultMockCalls, "scripted calls per method of a generated mock type (dowse help mocks)")
	isolateFlag := fs.String("isolate", "auto", "isolation sandbox: `mode` auto, off, or what to isolate (dowse help isolation)")
	realFlag := fs.String("real", "", "comma-separated packages, functions (pkg.F) or methods (pkg.T.M) never isolated")
	unitFlag := fs.String("unit", "", "`packages` forming the unit under test with each package (dowse help isolation)")
	fs.BoolVar(&cfg.auto, "auto", false, "also explore exported functions and methods (dowse help targets)")
	fs.BoolVar(&cfg.corpus, "corpus", true, "start fuzz targets from their corpus and the fuzz cache (dowse help fuzz)")
	fs.BoolVar(&cfg.keepWork, "keep-work", false, "keep the work directory and print its path")
	fs.BoolVar(&cfg.cache, "cache", true, "skip targets whose cached results are still valid (dowse help cache)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dowse gen [flags] [packages]")
		fmt.Fprintln(stderr, `
Explores the parameterized unit tests (func PutXxx(t *testing.T, ...)) and
fuzz targets of the packages by concolic execution and writes a generated
_test.go file (and fuzz corpus files) next to each test file that declares
them. The packages' own files are never modified.

Exit status: 0 if no target failed, 3 if one failed on some input, 1 on
errors, 2 for usage errors (dowse help exit). More on the flags: dowse help.

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
	// Scripts read -json as one object per target: progress events in
	// the stream are theirs to ask for; standard error still shows the
	// status line to the person running dowse.
	cfg.progressEvents = cfg.json && cfg.progress && set["progress"]
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
	if cfg.fuzzShare < 0 || cfg.fuzzShare >= 1 {
		return usage("-fuzz-share %v: want a share in [0, 1)", cfg.fuzzShare)
	}
	cfg.isolate = isolate.Parse(*isolateFlag, *realFlag, *unitFlag)
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
	// Under a budget, a target that stops finding new behaviour leaves
	// its time to the others.
	cfg.explore.Plateau = cfg.budget > 0
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
		cfg.explore.SolverTimeout < 0, cfg.runTimeout < 0, cfg.budget < 0:
		return usage("bounds must not be negative")
	case cfg.maxMemory < 0:
		return usage("-max-memory %d: want a number of bytes, or 0 for no bound", cfg.maxMemory)
	case cfg.lenCap < 0:
		return usage("-len-cap %d must not be negative", cfg.lenCap)
	case cfg.mockCalls < 1:
		return usage("-mock-calls %d: want at least 1 scripted call", cfg.mockCalls)
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

// engineConfig is the engine's configuration for cfg, with diagnostics
// going to stderr.
func (cfg genConfig) engineConfig(stderr io.Writer) engine.Config {
	return engine.Config{
		Dir:              cfg.dir,
		Tags:             cfg.tags,
		Run:              cfg.run,
		InstrumentModule: cfg.instrumentModule,
		Instrument:       cfg.instrument,
		Shard:            cfg.shard,
		Corpus:           cfg.corpus,
		KeepWork:         cfg.keepWork,
		MaxLen:           cfg.maxLen,
		LenCap:           cfg.lenCap,
		FuzzShare:        cfg.fuzzShare,
		Auto:             cfg.auto,
		NoMocks:          !cfg.mocks,
		MockCalls:        cfg.mockCalls,
		MaxMemory:        cfg.maxMemory,
		Workers:          cfg.workers,
		RunTimeout:       cfg.runTimeout,
		Budget:           cfg.budget,
		Explore:          cfg.explore,
		Isolate:          cfg.isolate,
		Stderr:           stderr,
		Verbose:          cfg.verbose,
	}
}

// gen runs the engine with results going to out and returns the exit
// code.
func gen(ctx context.Context, cfg genConfig, patterns []string, out output.Handler, stderr io.Writer) int {
	ecfg := cfg.engineConfig(stderr)
	if cfg.cache {
		c, err := openCache()
		if err != nil {
			fmt.Fprintf(stderr, "dowse gen: warning: results are not cached: %v\n", err)
		}
		ecfg.Cache = c
	}
	stats, err := engine.Run(ctx, ecfg, patterns, engine.Output(out))
	if ctx.Err() != nil {
		// Stopped: the targets handed to out so far get their totals.
		if err != nil {
			fmt.Fprintf(stderr, "dowse gen: %v\n", context.Cause(ctx))
		} else if err := out.Flush(); err != nil {
			fmt.Fprintf(stderr, "dowse gen: %v\n", err)
		}
		return stopCode(ctx)
	}
	if err != nil {
		if load.IsCompileError(err) {
			err = fmt.Errorf("the packages do not compile; nothing was written:\n%w", err)
		}
		fmt.Fprintf(stderr, "dowse gen: %v\n", err)
		streamError(out, err)
		return exitError
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "dowse gen: %v\n", err)
		return exitError
	}
	switch {
	case stats.Errors > 0:
		return exitError
	case stats.Findings > 0:
		return exitFindings
	}
	return exitOK
}

// openCache opens the result cache.
func openCache() (*cache.Cache, error) {
	dir, err := cache.DefaultDir()
	if err != nil {
		return nil, err
	}
	return cache.Open(dir)
}
