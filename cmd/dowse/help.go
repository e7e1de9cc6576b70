package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// This file holds "dowse help": the list of commands and topics, and the
// topics themselves, which explain what a flag's one-line usage cannot
// (as "go help testflag" does for go test).

// A helpTopic is a page of "dowse help <name>".
type helpTopic struct {
	name    string
	summary string
	text    string
}

// helpTopics are the topics, in the order "dowse help" lists them.
var helpTopics = []helpTopic{
	{"bounds", "how -budget, -max-time, -max-len and the other bounds interact", helpBounds},
	{"fuzz", "the fuzzer and the mutation phase: -fuzz-share, -mutate, -corpus", helpFuzz},
	{"isolation", "which calls run for real: -isolate, -real, -unit, -instrument", helpIsolation},
	{"targets", "what is explored and which rows are written: -run, -auto, -shard", helpTargets},
	{"mocks", "interface inputs and generated mock types: -mocks, -mock-calls", helpMocks},
	{"cache", "incremental runs: -cache and DOWSE_CACHE", helpCache},
	{"output", "what dowse gen prints and writes: -v, -json, -progress, -html", helpOutput},
	{"exit", "exit status and signals", helpExit},
	{"detect", "how far dowse detect follows mocks: -interprocedural, -into-production", helpDetect},
}

// runHelp implements "dowse help [command|topic]".
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: dowse help [command|topic]")
		return 2
	}
	name := args[0]
	for _, t := range helpTopics {
		if t.name == name {
			fmt.Fprint(stdout, strings.TrimLeft(t.text, "\n"))
			return 0
		}
	}
	if cmd, ok := commands[name]; ok {
		return cmd.run([]string{"-h"})
	}
	fmt.Fprintf(stderr, "dowse help %s: unknown command or topic; run \"dowse help\"\n", name)
	return 2
}

// usage lists the commands and the help topics.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dowse <command> [flags] [packages]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "\nhelp topics (dowse help <topic>):")
	for _, t := range helpTopics {
		fmt.Fprintf(w, "  %-10s %s\n", t.name, t.summary)
	}
	fmt.Fprintln(w, "\nRun \"dowse <command> -h\" for the flags of a command.")
}

// helpMain is the entry point of "dowse help" from dispatch.
func helpMain(args []string) int { return runHelp(args, os.Stdout, os.Stderr) }

const helpBounds = `
Bounds of dowse gen

Every exploration is bounded; a verdict says which bound it holds for.

  -budget d        time of the whole run (default 5m; 0: none), loading and
                   building included, shared by its targets: each package
                   gets a part by its number of targets, each target an
                   equal part of what its package has left (at least 1s, at
                   most -max-time). A target that goes 1000 runs without a
                   new branch outcome or path ends early (stop reason
                   plateau) and leaves its time to the others; one still
                   finding when its part runs out stops with reason budget,
                   is explored again from where it stopped while the package
                   has time left, and is resumed by the next run (the cache).
  -max-time d      time per target (default 1m; 0: none), an upper bound on
                   its part of -budget. A fuzz target shares it with the
                   fuzzer (see "dowse help fuzz").
  -max-runs n      runs per target (default 0: none), a hard stop.
  -max-branches n  branches recorded per run (default 10000; 0: none). A run
                   that reaches it is stopped like t.FailNow and counted as
                   bounded, not as a failure; when one function is then 32
                   or more calls deep in the run's stack, the verdict says
                   recursion-depth, naming the function and its depth.
  -run-timeout d   time of one run (default 10s; 0: none).
  -solver-timeout d
                   time of one solver query (default 5s).
  -max-memory n    bytes of data of each worker process (default 2 GiB;
                   0: none), enforced with RLIMIT_DATA. A run that exceeds
                   it ends its worker, which is replaced; the run bounds the
                   verdict and is not a failure.
  -max-len n       length of string and slice inputs (default 10).
  -len-cap n       how far dowse raises the length bound by itself
                   (default 64). Unless -max-len is given, dowse raises the
                   bound to fit the longest f.Add seed within the cap, and
                   explores a target again with a longer bound when branches
                   that longer inputs reach were left. An explicit -max-len
                   is the bound unless -len-cap is given too; a cap at or
                   below -max-len never raises it.

A negative bound, length, memory or cap is a usage error (exit status 2).
See docs/architecture.md, "Raising the length bound".
`

const helpFuzz = `
The fuzzer and mutation in dowse gen

When the concolic search of a target is not exhaustive, dowse can look
further in two ways:

  -fuzz-share f  share of a fuzz target's -max-time given to go test -fuzz,
                 seeded with the inputs dowse found (default 0.5, below 1;
                 0: never run the fuzzer). What the fuzzer finds is
                 explored further by the concolic search.
  -mutate        when the concolic search has nothing left to expand but
                 the target is not exhaustive, mutate the inputs found, as
                 a fuzzer does, until -max-time or a plateau (default true).
  -corpus        start fuzz targets from their testdata/fuzz corpus and the
                 go command's fuzz cache, as go test -fuzz does (default
                 true). -corpus=false starts from the zero input and the
                 f.Add seeds only, which keeps the output independent of
                 earlier runs.
`

const helpIsolation = `
Isolation and instrumentation in dowse gen

Calls of code under test that may reach the environment (files, network,
clock, databases) are isolated by default: in dowse's build they return
values the solver chooses, and the rows that need such values go into a
file only "dowse test" runs (docs/isolate.md).

  -isolate v     auto (default) isolates the calls of code under test that
                 may reach the environment; off runs every call for real;
                 comma-separated packages, functions (pkg.F) or methods
                 (pkg.T.M) are isolated besides.
  -real list     comma-separated packages, functions (pkg.F) or methods
                 (pkg.T.M) never isolated.
  -unit list     comma-separated packages of the module (path/... for a
                 tree) that form the unit under test with each explored
                 package: calls between them stay real, and their own calls
                 that reach the environment are isolated too.

Only instrumented code is explored symbolically; other code runs as it is:

  -instrument-module
                 also instrument the other packages of the module that the
                 tests import.
  -instrument patterns
                 also instrument the packages of other modules that match
                 these comma-separated patterns (e.g. golang.org/x/mod/...),
                 copied into the work directory.
`

const helpTargets = `
Targets and rows in dowse gen

dowse gen explores the parameterized unit tests (func PutXxx(t *testing.T,
...)) and fuzz targets of the packages, and writes a generated _test.go
file next to each test file that declares them.

  -run regexp    explore only the targets whose names match.
  -auto          also explore every exported function and method of
                 packages that have PUTs or fuzz targets (packages without
                 any always get them; never those declared in generated
                 files).
  -shard i/n     explore only shard i (0 <= i < n) of the packages, for a
                 CI fan-out: every shard loads the same packages and writes
                 disjoint files.
  -row-per-path  write a test row for every distinct passing path (default:
                 rows that reach every branch outcome, and every failure).
  -search s      search strategy: generational (default), dfs, bfs or
                 random; -seed n seeds the random choices.
`

const helpMocks = `
Interface inputs in dowse gen

An input of interface type is nil, one of the package's own types that
implement it, or, with -mocks, a generated mock type whose methods return
scripted results the exploration chooses (docs/mocks.md).

  -mocks         offer generated mock types besides nil and the package's
                 own types (default true).
  -mock-calls n  scripted calls per method of a generated mock type
                 (default 3, at least 1); later calls return the last
                 results again.
`

const helpCache = `
Incremental runs of dowse gen

Like go test, dowse gen caches each target's result. A target nothing it
depends on changed for (dowse, Go, the exploration flags, its package's
files, generated files included, and the module's packages it imports)
is not explored again: its tests are kept and its summary is replayed,
marked "(cached)" (JSON "cached": true). A target the -budget or a
signal (Ctrl-C) cut short while it was still finding is not replayed:
the next run resumes it from where it stopped (JSON "resumed").

  -cache         skip targets whose results are cached (default true);
                 -cache=false explores everything.

The cache lies in $DOWSE_CACHE, or in dowse under the user's cache
directory; it is trimmed to 256 MiB, least recently used first.
`

const helpOutput = `
What dowse gen prints and writes

By default dowse gen prints one line per package (targets, exhaustive,
findings, time) with what needs attention under it, then the findings
grouped by cause, each with its smallest input and the command that
reproduces it (docs/output.md).

  -v             write every target's whole report instead: each failure,
                 the failures listed apart, unsolved branches,
                 concretizations; and log each step on standard error.
  -json          write one JSON object per target to standard output,
                 each on a line of its own; a run that cannot start ends
                 the stream with {"error": "..."}.
  -progress      report progress on standard error while dowse runs: a
                 status line updated in place on a terminal, a plain line
                 every few seconds otherwise (default true; -progress=false
                 turns it off). With -json, progress events go into the
                 stream ({"progress": {...}}) only when -progress is given.
  -html file     also write an HTML report: per package the sources with
                 each branch outcome covered or not and why, per target
                 the rows and findings (docs/report.md). dowse report
                 renders the same page from a -json stream.
`

const helpExit = `
Exit status of dowse gen

  0    no target failed.
  1    the packages do not compile, or a target could not be explored or
       written (no module, a pattern naming no package, ...).
  2    usage error (an unknown flag, a bound out of range).
  3    a target failed on some input; the failing inputs are written too.
       As with go vet, findings exit non-zero; the distinct status lets
       scripts tell findings from errors.
  130, 143
       stopped by SIGINT or SIGTERM: dowse writes what it found so far,
       caches it (the next run replays the targets that finished and
       resumes the one cut short), removes its temporary directories and
       exits; a second signal stops at once, writing nothing more.
`

const helpDetect = `
How far dowse detect follows mocks

By default the analysis is intraprocedural: a value is a mock where a test
function makes it (a mock type, a mock constructor, -mock-type, -mock-func,
-config) or where its static type is a mock type.

  -interprocedural
                   also propagate mocks along the edges of a VTA call graph
                   (golang.org/x/tools/go/callgraph/vta) between the
                   functions of test files and of test helper packages (the
                   non-test packages that import testing): arguments to
                   parameters, results to call results. It adds the mocks
                   that cross a function boundary behind an interface, as a
                   helper returning Store that returns a mock.
  -into-production
                   with -interprocedural, also propagate through every
                   loaded package's code, the module's production code
                   included; call sites are still reported in test files
                   only.

See docs/detect.md, "The analysis".
`
