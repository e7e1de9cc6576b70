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
	verbose          bool
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
	if err := preflight(cfg.dir, patterns); err != nil {
		fmt.Fprintf(stderr, "dowse gen: %v\n", err)
		return exitError
	}
	var out output.Handler
	if cfg.json {
		out = output.NewJSONHandler(stdout)
	} else {
		out = output.NewTextHandler(stdout, cfg.verbose)
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
	fs.BoolVar(&cfg.verbose, "v", false, "report progress on standard error and list every failure and unsolved branch")
	fs.DurationVar(&cfg.budget, "budget", defaultBudget, "time budget of the whole run, shared by its targets: targets that stop finding new behaviour end early and leave their time to those still finding it (0: none; each target runs to -max-time)")
	fs.IntVar(&cfg.explore.MaxRuns, "max-runs", 0, "bound on the runs per target (0: none)")
	fs.IntVar(&cfg.explore.MaxBranches, "max-branches", 10000, "bound on the branches recorded per run (0: none)")
	fs.DurationVar(&cfg.explore.MaxTime, "max-time", time.Minute, "bound on the exploration time per target (0: none)")
	fs.DurationVar(&cfg.explore.SolverTimeout, "solver-timeout", 5*time.Second, "bound on the time of one solver query")
	fs.IntVar(&cfg.maxLen, "max-len", 10, "bound on the length of string and slice inputs")
	fs.Float64Var(&cfg.fuzzShare, "fuzz-share", 0.5, "share of a fuzz target's -max-time given to go test -fuzz, seeded with the inputs dowse found, when the concolic search is not exhaustive; what the fuzzer finds is explored further (0: never run the fuzzer)")
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
	fs.BoolVar(&cfg.mocks, "mocks", true, "offer interface inputs generated mock types besides nil and the package's own types (docs/mocks.md)")
	fs.IntVar(&cfg.mockCalls, "mock-calls", load.DefaultMockCalls, "scripted calls per method of a generated mock type (later calls return the last results again)")
	isolateFlag := fs.String("isolate", "auto", "isolation sandbox: `auto` isolates the calls of code under test that may reach the environment (files, network, clock, databases; docs/isolate.md), off runs every call for real; comma-separated packages, functions (pkg.F) or methods (pkg.T.M) are isolated besides")
	realFlag := fs.String("real", "", "comma-separated packages, functions (pkg.F) or methods (pkg.T.M) never isolated")
	unitFlag := fs.String("unit", "", "comma-separated `packages` of the module (path/... for a tree) that form the unit under test with each explored package: calls between them stay real, and their own calls that reach the environment are isolated too")
	fs.BoolVar(&cfg.auto, "auto", false, "also explore every exported function and method of packages that have PUTs or fuzz targets (packages without any always get them)")
	fs.BoolVar(&cfg.corpus, "corpus", true, "start fuzz targets from their testdata/fuzz corpus and the go command's fuzz cache, as go test -fuzz does")
	fs.BoolVar(&cfg.keepWork, "keep-work", false, "keep the work directory and print its path")
	fs.BoolVar(&cfg.cache, "cache", true, "skip targets nothing they depend on changed for since a run that cached their results, keeping their tests and replaying their summaries (cache in $DOWSE_CACHE, or dowse in the user's cache directory)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dowse gen [flags] [packages]")
		fmt.Fprintln(stderr, `
Explores the parameterized unit tests (func PutXxx(t *testing.T, ...)) and
fuzz targets of the packages by concolic execution and writes a generated
_test.go file (and fuzz corpus files) next to each test file that declares
them. The packages' own files are never modified.

Exit status: 0 if no target failed, 3 if a target failed on some input
(the failing inputs are written too), 1 if the packages do not compile or a
target could not be explored or written, 2 for usage errors, 130 or 143
when stopped by SIGINT or SIGTERM (what was found is written; a second
signal stops at once).

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
			fmt.Fprintf(stderr, "dowse gen: the packages do not compile; nothing was written:\n%v\n", err)
		} else {
			fmt.Fprintf(stderr, "dowse gen: %v\n", err)
		}
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
