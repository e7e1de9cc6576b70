// Command sweep runs dowse gen as a user would, with default flags, on
// packages of popular modules from the module proxy that the other
// benchmark commands do not use, and reports what a newcomer meets: for
// each package it copies the module out of the module cache twice, runs
// the package's own tests with -cover in one copy, removes the package's
// _test.go files in the other and runs "dowse gen -json ./<pkg>" there,
// interrupting it (SIGINT to its process group, as Ctrl-C does) when the
// package's wall-time budget runs out, then runs go test -cover on what
// dowse wrote. It prints a markdown table with a row per package and,
// after it, the messages behind the table's problems.
//
// Usage (from the repository root; needs the module proxy):
//
//	go run ./bench/sweep [-only regexp] [-budget 5m] [-out file] [-dowse path] [-parallel n] [-keep dir]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dowse-go/dowse/bench/internal/modcopy"
)

// packages are module@version and the package directory in it: parsers,
// converters, data structures, validators and command-line libraries.
var packages = []struct{ module, dir string }{
	{"github.com/iancoleman/strcase@v0.3.0", "."},
	{"github.com/tidwall/match@v1.2.0", "."},
	{"github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8", "lru"},
	{"github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8", "consistenthash"},
	{"github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8", "singleflight"},
	{"github.com/hashicorp/go-version@v1.9.0", "."},
	{"github.com/cespare/xxhash/v2@v2.3.0", "."},
	{"github.com/gobwas/glob@v0.2.3", "syntax/lexer"},
	{"github.com/gobwas/glob@v0.2.3", "util/strings"},
	{"github.com/gobwas/glob@v0.2.3", "match"},
	{"github.com/gobwas/glob@v0.2.3", "."},
	{"github.com/emirpasic/gods@v1.18.1", "utils"},
	{"github.com/emirpasic/gods@v1.18.1", "lists/arraylist"},
	{"github.com/emirpasic/gods@v1.18.1", "lists/singlylinkedlist"},
	{"github.com/emirpasic/gods@v1.18.1", "stacks/arraystack"},
	{"github.com/emirpasic/gods@v1.18.1", "queues/arrayqueue"},
	{"github.com/emirpasic/gods@v1.18.1", "queues/circularbuffer"},
	{"github.com/emirpasic/gods@v1.18.1", "sets/hashset"},
	{"github.com/emirpasic/gods@v1.18.1", "trees/binaryheap"},
	{"github.com/emirpasic/gods@v1.18.1", "maps/hashbidimap"},
	{"github.com/hashicorp/golang-lru/v2@v2.0.7", "simplelru"},
	{"github.com/huandu/xstrings@v1.6.3", "."},
	{"github.com/spf13/cast@v1.10.0", "."},
	{"github.com/spf13/pflag@v1.1.0", "."},
	{"github.com/tidwall/gjson@v1.20.2", "."},
	{"github.com/mitchellh/mapstructure@v1.5.0", "."},
	{"github.com/BurntSushi/toml@v1.6.0", "."},
	{"github.com/go-ini/ini@v1.67.3", "."},
}

// interruptGrace is how long dowse gets to end after the interrupt
// before its process group is killed.
const interruptGrace = time.Minute

// testTimeout bounds each go test run.
const testTimeout = 10 * time.Minute

// result is one package's row.
type result struct {
	name string // module path, package directory, @version

	exit        int           // dowse gen's exit status (-1: killed)
	cut         bool          // interrupted at the budget
	killed      bool          // still running interruptGrace after the interrupt
	endAfterInt time.Duration // from the interrupt to the end
	dowseTime   time.Duration
	silence     time.Duration // longest time dowse wrote nothing
	bugs        []string      // standard error lines saying "a bug in dowse"
	diags       []string      // dowse gen's diagnostics on standard error
	sum         summary
	files       int // generated _test.go files

	genPass  string // "yes", "FAIL", or "—" if dowse wrote no test
	genWhy   string // why the generated tests failed
	genCover string
	genTime  time.Duration

	ownCover string
	ownTime  time.Duration
	ownWhy   string

	stdout, stderr, genOut []byte // dowse's output and go test's on what it wrote
}

func main() {
	only := flag.String("only", "", "run only the packages whose module/dir path matches `regexp`")
	budget := flag.Duration("budget", 5*time.Minute, "wall time per package for dowse gen, after which it is interrupted (SIGINT) and its row marked cut")
	out := flag.String("out", "", "also write the table to `file`")
	dowse := flag.String("dowse", "", "dowse binary to run (default: built from this repository)")
	parallel := flag.Int("parallel", 1, "measure `n` packages at a time")
	keep := flag.String("keep", "", "keep each package's module copies and dowse's output under `dir` (default: removed)")
	flag.Parse()
	log.SetFlags(0)
	onlyRE, err := regexp.Compile(*only)
	if err != nil {
		log.Fatalf("-only: %v", err)
	}
	work, err := os.MkdirTemp("", "sweep")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	bin := *dowse
	if bin == "" {
		bin = filepath.Join(work, "dowse")
		if err := modcopy.BuildDowse(bin); err != nil {
			log.Fatal(err)
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		log.Fatal(err)
	}
	// A cache of its own, so that dowse explores every target and does
	// not replay results of an earlier sweep.
	cacheDir := filepath.Join(work, "cache")

	header := fmt.Sprintf("dowse gen -json ./<pkg>, default exploration flags, %s wall time per package (then SIGINT), the package's _test.go files removed; own tests: go test -cover on the module as published\n\n", *budget)
	header += "| package | dowse exit | cut | dowse time | longest silence | targets | not explored | failures (documented, nil input) | \"bug in dowse\": targets / stderr lines | generated files | generated tests pass | coverage: generated | go test time | coverage: own tests | own tests time |\n"
	header += "|---|---:|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|\n"
	fmt.Print(header)
	var jobs []int
	for i, p := range packages {
		if onlyRE.MatchString(fullPath(p.module, p.dir)) {
			jobs = append(jobs, i)
		}
	}
	results := make([]*result, len(packages))
	var mu sync.Mutex
	sem := make(chan struct{}, max(*parallel, 1))
	var wg sync.WaitGroup
	for _, i := range jobs {
		p := packages[i]
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			dir := filepath.Join(work, fmt.Sprint(i))
			if *keep != "" {
				dir = filepath.Join(*keep, fmt.Sprint(i))
			}
			r, err := sweep(dir, bin, cacheDir, p.module, p.dir, *budget, *keep != "")
			if err != nil {
				log.Fatalf("%s: %v", fullPath(p.module, p.dir), err)
			}
			_, version, _ := strings.Cut(p.module, "@")
			r.name = fullPath(p.module, p.dir) + "@" + version
			if *keep == "" {
				os.RemoveAll(dir)
			}
			mu.Lock()
			defer mu.Unlock()
			results[i] = r
			fmt.Print(r.row())
			if *out != "" {
				if err := os.WriteFile(*out, []byte(render(header, results)), 0o644); err != nil {
					log.Fatal(err)
				}
			}
		})
	}
	wg.Wait()
	table := render(header, results)
	if n := notesOf(results); n != "" {
		fmt.Print(n)
	}
	if *out != "" {
		if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// fullPath is the import path of the package directory dir of module
// (module@version).
func fullPath(module, dir string) string {
	path, _, _ := strings.Cut(module, "@")
	if dir != "." {
		path += "/" + dir
	}
	return path
}

// render is the table of the results measured so far, in the order of
// packages, followed by the messages behind it.
func render(header string, results []*result) string {
	table := header
	for _, r := range results {
		if r != nil {
			table += r.row()
		}
	}
	return table + notesOf(results)
}

// notesOf is the section of messages behind the table's rows, if any.
func notesOf(results []*result) string {
	var notes []string
	for _, r := range results {
		if r != nil {
			notes = append(notes, r.notes()...)
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return "\nMessages behind the table:\n\n" + strings.Join(notes, "\n") + "\n"
}

// sweep measures one package of module (module@version) in the work
// directory work; with keep it also writes dowse's output and the
// generated tests' go test output there.
func sweep(work, dowse, cacheDir, module, dir string, budget time.Duration, keep bool) (*result, error) {
	src, err := modcopy.Download(module)
	if err != nil {
		return nil, err
	}
	own, gen := filepath.Join(work, "own"), filepath.Join(work, "gen")
	for _, dst := range []string{own, gen} {
		if err := modcopy.CopyWritable(src, dst); err != nil {
			return nil, fmt.Errorf("copy %s: %w", module, err)
		}
		if err := ensureGoMod(dst, module); err != nil {
			return nil, err
		}
	}
	pkg := "./" + filepath.ToSlash(dir)
	r := &result{}

	// The module's own tests, as published.
	o, d, err := goTest(own, pkg)
	if err != nil {
		return nil, err
	}
	r.ownTime = d
	r.ownCover = coverageOf(o)
	if r.ownCover == "" {
		r.ownCover = "—"
		r.ownWhy = firstFailure(o)
	}

	// dowse on the package without its tests.
	pkgDir := filepath.Join(gen, dir)
	tests, err := filepath.Glob(filepath.Join(pkgDir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	for _, t := range tests {
		if err := os.Remove(t); err != nil {
			return nil, fmt.Errorf("remove the package's tests: %w", err)
		}
	}
	before, err := testFiles(pkgDir)
	if err != nil {
		return nil, err
	}
	if err := r.runDowse(gen, dowse, cacheDir, pkg, budget); err != nil {
		return nil, err
	}
	after, err := testFiles(pkgDir)
	if err != nil {
		return nil, err
	}
	for _, f := range after {
		if !slices.Contains(before, f) {
			r.files++
		}
	}
	r.genPass, r.genCover = "—", "—"
	if r.files > 0 {
		o, d, err := goTest(gen, pkg)
		if err != nil {
			return nil, err
		}
		r.genTime = d
		r.genOut = o
		r.genPass = "yes"
		if c := coverageOf(o); c != "" {
			r.genCover = c
		}
		if failed(o) {
			r.genPass = "FAIL"
			r.genWhy = firstFailure(o)
		}
	}
	if keep {
		for name, b := range map[string][]byte{"dowse.json": r.stdout, "dowse.stderr": r.stderr, "gentest.out": r.genOut} {
			if err := os.WriteFile(filepath.Join(work, name), b, 0o644); err != nil {
				return nil, fmt.Errorf("keep %s: %w", name, err)
			}
		}
	}
	return r, nil
}

// runDowse runs dowse gen -json on pkg in the module copy mod, with a
// fresh result cache, and interrupts it at budget.
func (r *result) runDowse(mod, dowse, cacheDir, pkg string, budget time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	cmd := exec.CommandContext(ctx, dowse, "gen", "-json", pkg)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "DOWSE_CACHE="+cacheDir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var interrupted time.Time
	cmd.Cancel = func() error {
		interrupted = time.Now()
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	}
	cmd.WaitDelay = interruptGrace
	began := time.Now()
	clock := newSilenceClock(began)
	stdout, stderr := &silenceWriter{clock: clock}, &silenceWriter{clock: clock}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start dowse: %w", err)
	}
	err := cmd.Wait()
	end := time.Now()
	// Whatever of its process group is left (workers of a killed run).
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit), errors.Is(err, exec.ErrWaitDelay), errors.Is(err, context.DeadlineExceeded):
	default:
		return fmt.Errorf("dowse gen %s: %w", pkg, err)
	}
	r.exit = cmd.ProcessState.ExitCode()
	r.dowseTime = end.Sub(began)
	r.silence = clock.end(end)
	r.cut = !interrupted.IsZero()
	if r.cut {
		r.endAfterInt = end.Sub(interrupted)
		r.killed = r.endAfterInt >= interruptGrace
	}
	r.stdout, r.stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	r.sum = summarize(stdout.buf.Bytes())
	r.bugs = bugLines(stderr.buf.Bytes())
	r.diags = diagnostics(stderr.buf.Bytes(), 5)
	return nil
}

// row is the result's markdown table row.
func (r *result) row() string {
	exit := fmt.Sprint(r.exit)
	cut := "no"
	if r.cut {
		cut = fmt.Sprintf("yes (ended %s later)", r.endAfterInt.Round(time.Second))
		if r.killed {
			cut = fmt.Sprintf("yes (killed %s later)", interruptGrace)
		}
	}
	s := r.sum
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %d | %d | %d (%d, %d) | %d / %d | %d | %s | %s | %s | %s | %s |\n",
		r.name, exit, cut, r.dowseTime.Round(time.Second), r.silence.Round(time.Second),
		s.targets, s.notExplored, s.failures, s.documented, s.nilInputs, s.bugTargets, len(r.bugs), r.files,
		r.genPass, r.genCover, r.genTime.Round(time.Second), r.ownCover, r.ownTime.Round(time.Second))
}

// notes are the messages behind the row: lines saying "a bug in dowse",
// dowse's diagnostics, targets not explored, why tests failed.
func (r *result) notes() []string {
	var notes []string
	add := func(what, msg string) {
		msg = strings.Join(strings.Fields(msg), " ")
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		notes = append(notes, fmt.Sprintf("- %s: %s: %s", r.name, what, msg))
	}
	for _, l := range r.diags {
		add("dowse stderr", l)
	}
	for _, m := range groupMessages(r.sum.messages) {
		add("targets", m)
	}
	if r.genWhy != "" {
		add("generated tests", r.genWhy)
	}
	if r.ownWhy != "" {
		add("own tests", r.ownWhy)
	}
	return notes
}

// ensureGoMod writes a go.mod for a module published without one.
func ensureGoMod(dir, module string) error {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return nil
	}
	path, _, _ := strings.Cut(module, "@")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+path+"\n\ngo 1.20\n"), 0o644); err != nil {
		return fmt.Errorf("write go.mod of %s: %w", module, err)
	}
	return nil
}

// testFiles lists the _test.go files of the directory.
func testFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, fmt.Errorf("list test files: %w", err)
	}
	return files, nil
}

// goTest runs go test -count=1 -cover on pkg in the module copy mod and
// returns its combined output and wall time; a test failure is in the
// output, an error means go test could not be run.
func goTest(mod, pkg string) ([]byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-cover", "-timeout", testTimeout.String(), pkg)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	began := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(began)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, took, fmt.Errorf("go test %s: %w", pkg, err)
	}
	return out, took, nil
}

// failed reports whether go test's output says the package failed.
func failed(out []byte) bool {
	return failRE.Match(out)
}

var failRE = regexp.MustCompile(`(?m)^(FAIL|--- FAIL|panic:)`)
