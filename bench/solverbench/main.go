// Command solverbench measures the solver on query corpora recorded from
// real explorations. It runs dowse gen with DOWSE_RECORD_QUERIES set on
// copies of the benchmark module's triangle and hash table, this
// repository's bank example, magic-value suite and lexer, and the eleven
// fuzz targets of real modules from the module proxy that bench/realfuzz
// measures (blang/semver's parsers, x/net's dnsmessage, go-glob's Glob,
// cron's ParseStandard, go-units' FromHumanSize and RAMInBytes,
// go-humanize's Comma, uuid's Parse, x/mod's semver and module path
// checks, shlex's and go-shellquote's Split), then replays every recorded
// query, side by side in one run:
//
//   - through a fresh default chain per corpus file, in the recorded
//     order (the caches see what they saw), reporting the share of the
//     independent groups each layer answered, the time per query, and
//     the time of the queries that reached Z3 (groups the divisors'
//     search decided by its small search, core_pinsearch.go, did not);
//   - through the Z3 core alone, with and without the linear layer and
//     the divisors' search, reporting the median, 90th percentile and
//     largest time per query.
//
// Answers that differ from the recorded ones (other than time-outs) are
// counted: a faster solver must never change an answer.
//
// Usage (from the repository root, with ../shared/bench beside it):
//
//	go run ./bench/solverbench [-bench ../shared/bench] [-corpus dir] [-sources bank,lexer] [-core=false] [-cpuprofile file] [-z3-times file]
//
// With -core=false the replays through the Z3 core alone are skipped (the
// chain's columns only; minutes instead of about twenty). After the table
// a line gives the queries that reached Z3 over every corpus replayed;
// -z3-times appends each one's corpus and time to a file, to pool runs
// over corpora recorded in different directories. Each corpus file is
// replayed through a fresh chain, whose Z3 contexts are created in the
// background as in an exploration; the replay waits for them before the
// first query, and the last line gives how long.
//
// With -corpus naming a directory that does not exist, the corpora are
// recorded there and kept, so that later runs replay the same queries.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dowse-go/dowse/bench/internal/modcopy"
	"github.com/dowse-go/dowse/internal/solver"
	"github.com/dowse-go/dowse/internal/sym"
)

// A source is one exploration whose queries make a corpus.
type source struct {
	name string
	// dir is the module to copy: "bench" (the benchmark module), a path in
	// this repository, or module@version from the module proxy.
	dir  string
	args []string // dowse gen arguments
	// ours names a fuzz target file of bench/realfuzz/testdata that
	// replaces the tests of a proxy module's package (args name the
	// package).
	ours string
}

// realArgs is what a source of a real module's fuzz target runs: the
// concolic search alone, as the other sources, for 20 s.
var realArgs = []string{"-max-time", "20s", "-mutate=false", "-fuzz-share", "0"}

var sources = []source{
	{"triangle", "bench", []string{"-max-len", "3", "./put/triangle"}, ""},
	{"hashtable", "bench", []string{"-max-len", "2", "-max-time", "20s", "-mutate=false", "-run", "PutSetImpliesContainsAndGet|PutRemoveRemoves", "./put/hashtable"}, ""},
	{"bank", "examples/bank", []string{"-max-time", "20s", "-mutate=false", "."}, ""},
	{"magic", "testdata/magic", []string{"-max-time", "20s", "-mutate=false", "./..."}, ""},
	{"lexer", "testdata/lexer", []string{"-max-len", "6", "-max-time", "20s", "-mutate=false", "./..."}, ""},
	// Fuzz targets of real modules (bench/realfuzz has their versions).
	{"blang-semver", "github.com/blang/semver/v4@v4.0.0", append(slices.Clone(realArgs), "."), "blangsemver_test.go"},
	{"dnsmessage", "golang.org/x/net@v0.62.0", append(slices.Clone(realArgs), "./dns/dnsmessage"), ""},
	{"go-glob", "github.com/ryanuber/go-glob@v1.0.0", append(slices.Clone(realArgs), "."), "goglob_test.go"},
	{"cron", "github.com/robfig/cron/v3@v3.0.1", append(slices.Clone(realArgs), "."), "cron_test.go"},
	{"go-units", "github.com/docker/go-units@v0.5.0", append(slices.Clone(realArgs), "."), "units_test.go"},
	{"humanize", "github.com/dustin/go-humanize@v1.1.0", append(slices.Clone(realArgs), "-run", "^FuzzComma$", "."), ""},
	{"uuid", "github.com/google/uuid@v1.6.0", append(slices.Clone(realArgs), "-run", "^FuzzParse$", "."), ""},
	{"x-mod-semver", "golang.org/x/mod@v0.42.0", append(slices.Clone(realArgs), "./semver"), "xmodsemver_test.go"},
	{"x-mod-module", "golang.org/x/mod@v0.42.0", append(slices.Clone(realArgs), "./module"), "xmodmodule_test.go"},
	{"shlex", "github.com/google/shlex@v0.0.0-20191202100458-e7afc7fbc510", append(slices.Clone(realArgs), "."), "shlex_test.go"},
	{"shellquote", "github.com/kballard/go-shellquote@v0.0.0-20180428030007-95032a82bc51", append(slices.Clone(realArgs), "."), "shellquote_test.go"},
}

func main() {
	benchDir := flag.String("bench", "../shared/bench", "benchmark module")
	corpus := flag.String("corpus", "", "directory of the corpora (one subdirectory per source): recorded there if it does not exist, else replayed (default: recorded in a temporary directory)")
	only := flag.String("sources", "", "comma-separated sources to record and replay (default: all of triangle, hashtable, bank, magic, lexer, blang-semver, dnsmessage, go-glob, cron, go-units, humanize, uuid, x-mod-semver, x-mod-module, shlex, shellquote)")
	core := flag.Bool("core", true, "also replay every query through the Z3 core alone (the two core columns; slow on the hash table and lexer corpora)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the replays to this file")
	z3TimesFile := flag.String("z3-times", "", "append to this file, a line per query that reached Z3, its corpus and its time in microseconds (to pool replays of several corpus directories)")
	flag.Parse()
	if *only != "" {
		var kept []source
		for _, name := range strings.Split(*only, ",") {
			i := slices.IndexFunc(sources, func(s source) bool { return s.name == name })
			if i < 0 {
				log.Fatalf("no source %q", name)
			}
			kept = append(kept, sources[i])
		}
		sources = kept
	}
	log.SetFlags(0)

	dir := *corpus
	if _, err := os.Stat(dir); dir == "" || os.IsNotExist(err) {
		work, dowse, err := modcopy.Workspace("solverbench")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(work)
		if dir == "" {
			dir = filepath.Join(work, "corpus")
		}
		for i, s := range sources {
			src := s.dir
			if src == "bench" {
				src = *benchDir
			}
			mod := filepath.Join(work, fmt.Sprint(i))
			if err := copySource(s, src, mod); err != nil {
				log.Fatal(err)
			}
			cmd := exec.Command(dowse, append([]string{"gen"}, s.args...)...)
			cmd.Dir = mod
			cmd.Env = append(os.Environ(), solver.EnvRecord+"="+filepath.Join(dir, s.name))
			if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() != 3 {
				log.Fatalf("%s: dowse gen: %v\n%s", s.name, err, out)
			}
		}
	}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Println("| corpus | queries | groups: exact cache / model / order / small domains / refuted / next to the seed / class search / linear / divisors / fixed-divisor search / bit-vector (narrow) | core, bit-vectors only: median / p90 / max | core with the linear layer and divisors: median / p90 / max | whole chain, per query: median / p90 / max (total) | whole chain, queries that reached Z3: count, median / p90 / max | answers changed |")
	fmt.Println("|---|---:|---|---|---|---|---|---:|")
	var allZ3 []time.Duration     // over every corpus replayed
	var warmTimes []time.Duration // waiting for each chain's Z3 contexts
	var timesOut *os.File
	if *z3TimesFile != "" {
		f, err := os.OpenFile(*z3TimesFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		timesOut = f
	}
	for _, s := range sources {
		files, _ := filepath.Glob(filepath.Join(dir, s.name, "*.gob"))
		sort.Strings(files)
		c := sym.NewContext()
		var all []solver.Query
		var recorded []solver.Status
		var st solver.Stats
		var chainTimes, z3Times []time.Duration
		chainChanged := 0
		for _, f := range files {
			qs, sts := read(f, c)
			all, recorded = append(all, qs...), append(recorded, sts...)
			// Through a fresh chain, in order: the caches see what the
			// recording chain saw.
			chain := solver.New(solver.Config{})
			// An exploration creates its chain before starting its
			// workers, which takes longer than creating Z3's contexts
			// in the background: wait for them, off the queries' clock.
			t0 := time.Now()
			chain.Warm()
			warmTimes = append(warmTimes, time.Since(t0))
			for i, q := range qs {
				before := chain.Stats()
				t0 := time.Now()
				r, err := chain.Solve(context.Background(), q)
				d := time.Since(t0)
				chainTimes = append(chainTimes, d)
				// Groups the fixed-divisor search answered reached the
				// core but not Z3.
				after := chain.Stats()
				if after.CoreQueries-after.PinSearched > before.CoreQueries-before.PinSearched {
					z3Times = append(z3Times, d)
				}
				if err != nil {
					log.Fatalf("%s: %v", f, err)
				}
				if r.Status != solver.Unknown && sts[i] != solver.Unknown && r.Status != sts[i] {
					chainChanged++
				}
			}
			st = add(st, chain.Stats())
			chain.Close()
		}
		if len(all) == 0 {
			fmt.Printf("| %s | 0 | | | | |\n", s.name)
			continue
		}
		bv, lin, changed := "not run", "not run", chainChanged
		if *core {
			var c int
			bv, _ = coreTimes(all, recorded, solver.Options{NoLinear: true, NoRelax: true})
			lin, c = coreTimes(all, recorded, solver.Options{})
			changed += c
		}
		share := func(n int64) string { return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(max(st.Groups, 1))) }
		divisors := st.Relaxed + st.Pinned
		fmt.Printf("| %s | %d | %s / %s / %s / %s / %s / %s / %s / %s / %s / %s / %s (%s) | %s | %s | %s | %d, %s | %d |\n", s.name, len(all),
			share(st.CacheHits), share(st.ModelHits), share(st.OrderHits), share(st.DomainHits), share(st.Refuted), share(st.NeighborHits), share(st.ClassHits), share(st.Linear), share(divisors), share(st.PinSearched), share(st.CoreQueries-st.Linear-divisors-st.PinSearched), share(st.Narrow),
			bv, lin, total(chainTimes), len(z3Times), percentiles(z3Times), changed)
		allZ3 = append(allZ3, z3Times...)
		if timesOut != nil {
			for _, d := range z3Times {
				if _, err := fmt.Fprintf(timesOut, "%s\t%d\n", s.name, d.Microseconds()); err != nil {
					log.Fatal(err)
				}
			}
		}
	}
	fmt.Printf("\nQueries that reached Z3 over every corpus above: %d, %s (median / p90 / max)\n", len(allZ3), percentiles(allZ3))
	fmt.Printf("Waiting for a fresh chain's Z3 contexts, before its first query (%d chains): %s (median / p90 / max)\n", len(warmTimes), percentiles(warmTimes))
}

// copySource copies the module of s (src: its directory, or module@version)
// into mod, for a target of ours replacing the package's tests by it.
func copySource(s source, src, mod string) error {
	if strings.Contains(src, "@") {
		dl, err := modcopy.Download(src)
		if err != nil {
			return err
		}
		if err := modcopy.CopyWritable(dl, mod); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(mod, "go.mod")); err != nil {
			path, _, _ := strings.Cut(src, "@")
			if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module "+path+"\n\ngo 1.20\n"), 0o644); err != nil {
				return err
			}
		}
	} else if err := modcopy.CopyWritable(src, mod); err != nil {
		return err
	}
	if s.ours == "" {
		return nil
	}
	pkg := filepath.Join(mod, s.args[len(s.args)-1])
	tests, _ := filepath.Glob(filepath.Join(pkg, "*_test.go"))
	for _, t := range tests {
		if err := os.Remove(t); err != nil {
			return err
		}
	}
	data, err := os.ReadFile(filepath.Join("bench", "realfuzz", "testdata", s.ours))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(pkg, "realfuzz_"+s.ours), data, 0o644)
}

func read(file string, c *sym.Context) ([]solver.Query, []solver.Status) {
	f, err := os.Open(file)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	qs, sts, err := solver.ReadCorpus(f, c)
	if err != nil {
		log.Fatalf("%s: %v", file, err)
	}
	return qs, sts
}

func add(a, b solver.Stats) solver.Stats {
	a.Groups += b.Groups
	a.CacheHits += b.CacheHits
	a.ModelHits += b.ModelHits
	a.OrderHits += b.OrderHits
	a.DomainHits += b.DomainHits
	a.Refuted += b.Refuted
	a.NeighborHits += b.NeighborHits
	a.ClassHits += b.ClassHits
	a.CoreQueries += b.CoreQueries
	a.Linear += b.Linear
	a.Narrow += b.Narrow
	a.Relaxed += b.Relaxed
	a.Pinned += b.Pinned
	a.PinSearched += b.PinSearched
	return a
}

// coreTimes solves every query with a fresh Z3 core of opts and returns
// the median, 90th percentile and largest time per query, and how many
// answers differ from the recorded ones (time-outs aside).
func coreTimes(qs []solver.Query, recorded []solver.Status, opts solver.Options) (string, int) {
	opts.Timeout = 10 * time.Second
	core := solver.NewZ3(opts)
	defer core.Close()
	times := make([]time.Duration, 0, len(qs))
	changed := 0
	for i, q := range qs {
		t0 := time.Now()
		r, err := core.Solve(context.Background(), q)
		times = append(times, time.Since(t0))
		if err != nil {
			log.Fatal(err)
		}
		if r.Status != solver.Unknown && recorded[i] != solver.Unknown && r.Status != recorded[i] {
			changed++
		}
	}
	return percentiles(times), changed
}

// percentiles formats the median, 90th percentile and largest of times.
func percentiles(times []time.Duration) string {
	if len(times) == 0 {
		return "-"
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	pct := func(p float64) time.Duration { return times[int(p*float64(len(times)-1))] }
	return fmt.Sprintf("%s / %s / %s", round(pct(0.5)), round(pct(0.9)), round(times[len(times)-1]))
}

// total is percentiles with the sum of the times after them.
func total(times []time.Duration) string {
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	return fmt.Sprintf("%s (%s)", percentiles(times), round(sum))
}

func round(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}
