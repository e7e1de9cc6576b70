// Command realfuzz compares dowse with Go's native fuzzer on fuzz targets
// of real modules from the module proxy, code nobody wrote for dowse: the
// modules' own fuzz targets where they have them, and otherwise a target of
// ours from testdata (dropped into a copy of the module in place of the
// package's tests). For each target both tools get the same exploration
// budget (-time, build excluded for both) on fresh copies, starting cold
// (no testdata/fuzz corpus, no fuzz cache; both run the target's f.Add
// seeds), and dowse gets a second run with a tenth of the budget. The
// table reports, for what each run left behind (the fuzzer's cache corpus;
// dowse's generated corpus), the statement coverage of the package and its
// function coverage (functions with a statement run), as measured by
// running the target over the passing inputs of that corpus with go test
// -cover (a failing input would end the measuring run), and whether a
// failing input was found. With -trials n, each tool runs n times on fresh
// copies and the table gives the median run (by statement coverage; the
// function coverage compared is the median too) and the range of the
// statement coverage: both tools vary from run to run.
//
// Usage (from the repository root; needs the module proxy):
//
//	go run ./bench/realfuzz [-time 60s] [-max-len n] [-targets uuid,...] [-trials 3]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dowse-go/dowse/bench/internal/modcopy"
)

// A target is one fuzz target in a package of a module.
type target struct {
	name   string // short name for the table
	module string // module@version
	dir    string // package directory in the module
	fuzz   string // fuzz target
	ours   string // file in testdata declaring the target ("": the module's own)
}

var targets = []target{
	{"uuid", "github.com/google/uuid@v1.6.0", ".", "FuzzParse", ""},
	{"dnsmessage", "golang.org/x/net@v0.62.0", "dns/dnsmessage", "FuzzUnpackPack", ""},
	{"humanize", "github.com/dustin/go-humanize@v1.1.0", ".", "FuzzComma", ""},
	{"x/mod/semver", "golang.org/x/mod@v0.42.0", "semver", "FuzzSemver", "xmodsemver_test.go"},
	{"x/mod/module", "golang.org/x/mod@v0.42.0", "module", "FuzzCheckPath", "xmodmodule_test.go"},
	{"blang/semver", "github.com/blang/semver/v4@v4.0.0", ".", "FuzzParse", "blangsemver_test.go"},
	{"shlex", "github.com/google/shlex@v0.0.0-20191202100458-e7afc7fbc510", ".", "FuzzSplit", "shlex_test.go"},
	{"shellquote", "github.com/kballard/go-shellquote@v0.0.0-20180428030007-95032a82bc51", ".", "FuzzSplit", "shellquote_test.go"},
	{"cron", "github.com/robfig/cron/v3@v3.0.1", ".", "FuzzParseStandard", "cron_test.go"},
	{"go-glob", "github.com/ryanuber/go-glob@v1.0.0", ".", "FuzzGlob", "goglob_test.go"},
	{"go-units", "github.com/docker/go-units@v0.5.0", ".", "FuzzParseSize", "units_test.go"},
}

func main() {
	budget := flag.Duration("time", 60*time.Second, "exploration budget per target and tool")
	maxLen := flag.Int("max-len", 0, "dowse gen -max-len (0: dowse's default, which dowse may raise)")
	flag.StringVar(&fuzzShare, "fuzz-share", "", "dowse gen -fuzz-share (empty: dowse's default)")
	only := flag.String("targets", "", "comma-separated target names (default: all)")
	trials := flag.Int("trials", 1, "runs per tool and target; the table reports medians")
	flag.StringVar(&profiles, "profiles", "", "keep each measuring run's cover profile in this directory (target-tool-budget-trial.cover), to compare what each tool reached")
	flag.Parse()
	log.SetFlags(0)

	root, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	work, dowse, err := modcopy.Workspace("realfuzz")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	tenth := *budget / 10

	bound := "dowse's default length bound"
	if *maxLen > 0 {
		bound = fmt.Sprintf("dowse -max-len %d", *maxLen)
	}
	fmt.Printf("budget %s per target and tool (dowse also %s); %s; coverage of the package: statements, functions\n\n", *budget, tenth, bound)
	fmt.Println("| target | fuzzer | dowse | dowse, 1/10 of the time | ≥ fuzzer | fuzzer's coverage in 1/10 | dowse runs, paths, verdict |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var atLeast, inTenth, total int
	for i, tg := range targets {
		if *only != "" && !strings.Contains(","+*only+",", ","+tg.name+",") {
			continue
		}
		total++
		src, err := prepare(root, filepath.Join(work, fmt.Sprint(i)), tg)
		if err != nil {
			log.Fatalf("%s: %v", tg.name, err)
		}
		var fzs, fulls, shorts []result
		for range max(*trials, 1) {
			fzs = append(fzs, runFuzzer(src, work, tg, *budget))
			fulls = append(fulls, runDowse(dowse, src, work, tg, *budget, *maxLen))
			shorts = append(shorts, runDowse(dowse, src, work, tg, tenth, *maxLen))
		}
		fz, full, short := median(fzs), median(fulls), median(shorts)
		ge := full.stmts >= fz.stmts && full.funcs >= fz.funcs
		fast := short.stmts >= fz.stmts
		if ge {
			atLeast++
		}
		if fast {
			inTenth++
		}
		fmt.Printf("| %s (%s) | %s | %s | %s | %s | %s | %s |\n", tg.name, tg.fuzz, fz, full, short, yes(ge), yes(fast), full.summary)
	}
	fmt.Printf("\ndowse ≥ the fuzzer on %d of %d targets; reaches the fuzzer's statement coverage in a tenth of the time on %d\n", atLeast, total, inTenth)
}

// median returns the run with the median statement coverage (the lower
// middle one of an even number), with the median function coverage, and
// the range of the statement coverage when there are several.
func median(rs []result) result {
	sorted := append([]result(nil), rs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].stmts < sorted[j].stmts })
	m := sorted[(len(sorted)-1)/2]
	if len(rs) > 1 {
		funcs := make([]float64, len(rs))
		for i, r := range rs {
			funcs[i] = r.funcs
		}
		sort.Float64s(funcs)
		m.funcs = funcs[(len(funcs)-1)/2]
		m.spread = fmt.Sprintf("%.1f–%.1f%%", sorted[0].stmts, sorted[len(sorted)-1].stmts)
		for _, r := range rs {
			m.found = m.found || r.found
		}
	}
	return m
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// A result is what one run left behind, measured.
type result struct {
	stmts, funcs float64 // percent
	nfuncs       string  // "reached/total"
	found        bool    // a failing input
	corpus       int     // corpus entries left behind
	summary      string  // dowse: runs, paths, verdict
	spread       string  // several trials: the range of the statement coverage
}

func (r result) String() string {
	s := fmt.Sprintf("%.1f%%, %s fn (%d inputs)", r.stmts, r.nfuncs, r.corpus)
	if r.spread != "" {
		s = fmt.Sprintf("%.1f%% (%s), %.1f%% fn", r.stmts, r.spread, r.funcs)
	}
	if r.found {
		s += ", failure found"
	}
	return s
}

// prepare copies the module into dir/src, removes the target's seed corpus
// so both tools start cold, and for a target of ours replaces the
// package's tests by the target's file.
func prepare(root, dir string, tg target) (string, error) {
	mod, err := modcopy.Download(tg.module)
	if err != nil {
		return "", err
	}
	src := filepath.Join(dir, "src")
	if err := modcopy.CopyWritable(mod, src); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		path, _, _ := strings.Cut(tg.module, "@")
		os.WriteFile(filepath.Join(src, "go.mod"), []byte("module "+path+"\n\ngo 1.20\n"), 0o644)
	}
	pkg := filepath.Join(src, tg.dir)
	os.RemoveAll(filepath.Join(pkg, "testdata", "fuzz", tg.fuzz))
	if tg.ours != "" {
		tests, _ := filepath.Glob(filepath.Join(pkg, "*_test.go"))
		for _, t := range tests {
			os.Remove(t)
		}
		data, err := os.ReadFile(filepath.Join(root, "bench", "realfuzz", "testdata", tg.ours))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(pkg, "realfuzz_"+tg.ours), data, 0o644); err != nil {
			return "", err
		}
	}
	return src, nil
}

// runFuzzer fuzzes a fresh copy for the budget and measures what its cache
// corpus (and a failing input, if any) reach.
func runFuzzer(src, work string, tg target, budget time.Duration) result {
	dir := filepath.Join(filepath.Dir(src), "fuzzer")
	if err := modcopy.CopyWritable(src, dir); err != nil {
		log.Fatal(err)
	}
	pkg := filepath.Join(dir, tg.dir)
	importPath := strings.TrimSpace(run(pkg, nil, "go", "list", "."))
	corpus := filepath.Join(strings.TrimSpace(run(pkg, nil, "go", "env", "GOCACHE")), "fuzz", importPath, tg.fuzz)
	os.RemoveAll(corpus)
	cmd := exec.Command("go", "test", "-run", "^$", "-fuzz", "^"+tg.fuzz+"$", "-fuzztime", budget.String(), ".")
	cmd.Dir = pkg
	out, err := cmd.CombinedOutput()
	found := err != nil && bytes.Contains(out, []byte("Failing input written"))
	if err != nil && !found {
		log.Printf("%s: fuzzer: %v\n%s", tg.name, err, tail(out))
	}
	// A failing input would end the measuring run (dowse's are in a
	// corpus of their own, which is not measured either).
	modcopy.KeepFuzzCorpus(corpus, pkg, tg.fuzz, out)
	r := measure(pkg, tg.fuzz, tg.name+"-fuzzer-"+budget.String())
	r.found = found
	return r
}

// runDowse explores a fresh copy with the budget and measures what its
// generated corpus and tests reach.
// fuzzShare is -fuzz-share, passed on to dowse gen.
var fuzzShare string

func runDowse(dowse, src, work string, tg target, budget time.Duration, maxLen int) result {
	dir := filepath.Join(filepath.Dir(src), "dowse-"+budget.String())
	if err := modcopy.CopyWritable(src, dir); err != nil {
		log.Fatal(err)
	}
	args := []string{"gen", "-json", "-corpus=false", "-max-runs", "0", "-max-time", budget.String(), "-run", "^" + tg.fuzz + "$"}
	if maxLen > 0 {
		args = append(args, "-max-len", strconv.Itoa(maxLen))
	}
	if fuzzShare != "" {
		args = append(args, "-fuzz-share", fuzzShare)
	}
	cmd := exec.Command(dowse, append(args, "./"+tg.dir)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output() // exit status 3: failures found
	if code := cmd.ProcessState.ExitCode(); err != nil && code != 3 {
		log.Printf("%s: dowse: %v\n%s", tg.name, err, tail(stderr.Bytes()))
	}
	var s struct {
		Runs       int               `json:"runs"`
		Paths      int               `json:"paths"`
		Exhaustive bool              `json:"exhaustive"`
		Failures   []json.RawMessage `json:"failures"`
		Elapsed    float64           `json:"elapsed_seconds"`
		GoFuzz     *struct {
			Seconds float64 `json:"seconds"`
			Inputs  int     `json:"inputs"`
			Paths   int     `json:"paths"`
			Error   string  `json:"error"`
		} `json:"go_fuzz"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.Decode(&s) == nil {
	}
	r := measure(filepath.Join(dir, tg.dir), tg.fuzz, tg.name+"-dowse-"+budget.String())
	r.found = len(s.Failures) > 0
	verdict := "not exhaustive"
	if s.Exhaustive {
		verdict = "exhaustive"
	}
	r.summary = fmt.Sprintf("%d runs, %d paths in %.1fs, %s", s.Runs, s.Paths, s.Elapsed, verdict)
	if g := s.GoFuzz; g != nil {
		r.summary += fmt.Sprintf("; go test -fuzz %.1fs: %d inputs, %d new paths", g.Seconds, g.Inputs, g.Paths)
		if g.Error != "" {
			r.summary += " (" + strings.SplitN(g.Error, "\n", 2)[0] + ")"
		}
	}
	return r
}

// measure runs the fuzz target over the package's corpus of passing
// inputs with a cover profile of the package.
func measure(pkg, fuzz, name string) result {
	prof := filepath.Join(pkg, "realfuzz.cover")
	defer os.Remove(prof)
	run(pkg, nil, "go", "test", "-count=1", "-run", "^"+fuzz+"$", "-coverprofile", prof, ".")
	if profiles != "" {
		keepProfile(prof, name)
	}
	out := run(pkg, nil, "go", "tool", "cover", "-func", prof)
	var r result
	var reached, all int
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[2], "%"), 64)
		if err != nil {
			continue
		}
		if f[0] == "total:" {
			r.stmts = pct
			continue
		}
		all++
		if pct > 0 {
			reached++
		}
	}
	if all > 0 {
		r.funcs = 100 * float64(reached) / float64(all)
	}
	r.nfuncs = fmt.Sprintf("%d/%d", reached, all)
	filepath.WalkDir(filepath.Join(pkg, "testdata", "fuzz", fuzz), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "dowse-notes" {
			r.corpus++
		}
		return nil
	})
	return r
}

// run runs a command in dir and returns its standard output; failures
// (a failing input fails the tests) are not errors here.
func run(dir string, env []string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.Output()
	return string(out)
}

// profiles is the -profiles directory ("": profiles are not kept).
var profiles string

// keepProfile copies the cover profile prof into the profiles directory as
// name-N.cover, N the first free trial number.
func keepProfile(prof, name string) {
	data, err := os.ReadFile(prof)
	if err != nil {
		log.Printf("keeping %s: %v", name, err)
		return
	}
	if err := os.MkdirAll(profiles, 0o755); err != nil {
		log.Fatal(err)
	}
	for n := 1; ; n++ {
		dst := filepath.Join(profiles, fmt.Sprintf("%s-%d.cover", strings.ReplaceAll(name, "/", "_"), n))
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			log.Fatal(err)
		}
		return
	}
}

var lastLines = regexp.MustCompile(`(?s)(?:[^\n]*\n?){0,15}$`)

func tail(b []byte) []byte { return lastLines.Find(b) }
