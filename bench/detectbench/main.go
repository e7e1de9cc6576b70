// Command detectbench measures the mock detector on real open-source
// modules and prints the Go counterparts of MockDetector's Tables 5.1-5.4.
//
// For each module@version it runs "go mod download -json" to find the
// module in the module cache, copies its source to a writable directory
// (the cache is read-only), loads ./... with tests there (GOFLAGS=-mod=mod,
// GOWORK=off, so missing dependencies are fetched by the go command),
// builds SSA once and runs the detection step in both modes.
//
// The copy of module@version always goes to the same path, under -work
// (default $TMPDIR/dowse-detectbench). The go command keys the build cache
// entries of a package on its directory (unless -trimpath), so with a fresh
// temporary directory every run would recompile the module's own packages
// and their tests, and "warm" load times would not be those of a user
// running the detector in a checkout. Do not run two detectbench processes
// on the same module at once.
//
// Usage:
//
//	go run ./bench/detectbench [-tags t] [-keep] [-work dir] [module@version ...]
//
// With no arguments it measures the default set of modules. The go
// command's environment (GOPROXY, GOMODCACHE, GOFLAGS, ...) is passed
// through; -tags is passed to the loader.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/detect"
)

// defaults are the modules of docs/detect.md, with the mocking style each
// exercises.
var defaults = []struct{ module, style string }{
	{"github.com/ory/fosite@v0.49.0", "gomock + testify suites"},
	{"github.com/quic-go/quic-go@v0.65.0", "gomock, in-package mocks"},
	{"github.com/cometbft/cometbft@v1.0.1", "mockery (testify)"},
	{"github.com/jaegertracing/jaeger@v1.76.0", "mockery v3, names without Mock"},
	{"github.com/livekit/livekit-server@v1.13.5", "counterfeiter"},
	{"github.com/zeromicro/go-zero@v1.10.3", "gomock + testify"},
	{"github.com/go-kit/kit@v0.13.0", "none (negative control)"},
}

type result struct {
	module, style      string
	loc, testLOC       int
	pkgs, errs         int
	load, ssa          time.Duration
	detIntra, detInter time.Duration
	intra, inter       detect.Summary
	err                error
}

func main() {
	tags := flag.String("tags", "", "comma-separated build tags for loading")
	keep := flag.Bool("keep", false, "keep the copies of the modules")
	workDir := flag.String("work", filepath.Join(os.TempDir(), "dowse-detectbench"),
		"directory for the copies of the modules (a stable path lets the build cache serve repeated runs)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: detectbench [-tags t] [-keep] [-work dir] [module@version ...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	mods := flag.Args()
	styles := map[string]string{}
	for _, d := range defaults {
		styles[d.module] = d.style
		if flag.NArg() == 0 {
			mods = append(mods, d.module)
		}
	}
	work, err := filepath.Abs(*workDir)
	if err == nil {
		err = os.MkdirAll(work, 0o755)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var results []*result
	for _, m := range mods {
		r := run(m, work, *tags, *keep)
		r.style = styles[m]
		if r.err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", m, r.err)
		} else {
			fmt.Fprintf(os.Stderr, "%s: %d packages (%d not analysed), load %v, SSA %v, detection %v intra / %v inter\n",
				m, r.pkgs, r.errs, r.load.Round(time.Millisecond), r.ssa.Round(time.Millisecond),
				r.detIntra.Round(time.Millisecond), r.detInter.Round(time.Millisecond))
		}
		results = append(results, r)
	}
	print(os.Stdout, results)
}

// env is the environment of every go command and load.
func env() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
}

func run(module, work, tags string, keep bool) *result {
	r := &result{module: module}
	dir, err := fetch(module, work)
	if !keep && dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		r.err = err
		return r
	}
	r.loc, r.testLOC = countLOC(dir)
	opts := detect.Options{Interprocedural: true}
	prog, err := detect.Load(detect.LoadConfig{Dir: dir, Tags: tags, Env: env(), Options: opts}, "./...")
	if err != nil {
		r.err = err
		return r
	}
	r.load, r.ssa = prog.LoadTime, prog.SSATime
	r.pkgs, r.errs = prog.Analyzed(), len(prog.Errors)
	var intra, inter totals
	if r.detIntra, err = prog.Analyze(nil, detect.Options{}, &intra); err != nil {
		r.err = err
		return r
	}
	if r.detInter, err = prog.Analyze(nil, opts, &inter); err != nil {
		r.err = err
		return r
	}
	r.intra, r.inter = intra.sum, inter.sum
	return r
}

// fetch downloads module@version and copies it to a writable directory
// whose path depends only on work and module@version. Whatever an earlier
// run left there is removed first.
func fetch(module, work string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GO111MODULE=on")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v\n%s%s", module, err, out, stderr.Bytes())
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", fmt.Errorf("go mod download %s: %v", module, err)
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", module, info.Error)
	}
	dst := filepath.Join(work, strings.NewReplacer("/", "_", "@", "_").Replace(module))
	if err := os.RemoveAll(dst); err != nil {
		return "", err
	}
	if err := copyTree(info.Dir, dst); err != nil {
		return dst, fmt.Errorf("copying %s: %w", module, err)
	}
	return dst, nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// countLOC counts non-blank lines of the module's Go files (nested
// modules, vendor and testdata directories excluded), and of its tests.
func countLOC(root string) (all, tests int) {
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if path != root {
				name := d.Name()
				if name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		n := detect.CountLOC(path)
		all += n
		if strings.HasSuffix(path, "_test.go") {
			tests += n
		}
		return nil
	})
	return all, tests
}

// totals is a detect.Handler that adds up the summaries.
type totals struct{ sum detect.Summary }

func (t *totals) PackageError(*detect.PackageError) error { return nil }
func (t *totals) Site(*detect.Site) error                 { return nil }
func (t *totals) Summary(s *detect.Summary) error         { t.sum.Add(s); return nil }

func secs(d time.Duration) string { return fmt.Sprintf("%.2f", d.Seconds()) }

func print(w io.Writer, rs []*result) {
	fmt.Fprintf(w, "Go %s, %s/%s, %d CPUs\n\n", strings.TrimPrefix(runtime.Version(), "go"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Fprintln(w, "Table 5.1 (Go): size and analysis time")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| module | mocking | LOC | test LOC | packages (skipped) | load s | SSA s | detect intra s | detect inter s | inter ms per test kLOC |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		if r.err != nil {
			fmt.Fprintf(w, "| %s | %s | failed: %v |\n", r.module, r.style, firstLine(r.err))
			continue
		}
		perK := 0.0
		if r.testLOC > 0 {
			perK = float64(r.detInter.Milliseconds()) / (float64(r.testLOC) / 1000)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d (%d) | %s | %s | %s | %s | %.1f |\n", r.module, r.style, r.loc, r.testLOC,
			r.pkgs, r.errs, secs(r.load), secs(r.ssa), secs(r.detIntra), secs(r.detInter), perK)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Table 5.2 (Go): field mocks by origin")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| module | declared with a mock type | assigned in fixture constructors | assigned in setup methods | assigned elsewhere (literals, table rows) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, r := range rs {
		if r.err == nil {
			f := r.inter.FieldMocks
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d |\n", r.module, f.Type, f.Constructor, f.Setup, f.Other)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Table 5.3 (Go): test-related functions with mocks (intraprocedural)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| module | test-related functions | with mocks | with mock-holding slices/arrays | with mock-holding maps/channels | mock creation sites |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		if r.err == nil {
			s := r.intra
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d |\n", r.module, s.Tests, s.TestsWithMocks, s.TestsWithMockSlices, s.TestsWithMockMaps, s.MockObjects)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Table 5.4 (Go): mock invocations")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| module | call sites | method calls | mock invocations intra | mock invocations inter | unresolved sites |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		if r.err == nil {
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d |\n", r.module, r.inter.Sites, r.inter.MethodCalls,
				r.intra.MockInvocations, r.inter.MockInvocations, r.inter.Unresolved)
		}
	}
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
