// Package gofuzz runs Go's native fuzzer (go test -fuzz) on one fuzz target
// for a bounded time, seeded with inputs dowse found, and returns the
// inputs the fuzzer found: the hybrid phase of a fuzz target's exploration
// (docs/architecture.md, "explore"). The concolic search solves what a
// fuzzer cannot guess (magic values, checksums, lengths); the fuzzer's
// cheap mutations carry long seeds and structured inputs further than a
// bounded symbolic layout does. Each feeds the other.
//
// The fuzzer runs the package's own code, compiled by go test -c -fuzz
// (no instrumentation of dowse's), in a scratch directory that mirrors the
// package directory through symbolic links, so that the target reads its
// testdata files as usual while the fuzzer's seed corpus, its crashers and
// its cache are files of the scratch directory: the user's testdata/fuzz
// and the go command's fuzz cache are never written.
package gofuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/procgroup"
)

// A Fuzzer is a fuzz target compiled for Go's fuzzer.
type Fuzzer struct {
	dir    string // the package directory
	target string // the fuzz target's name, FuzzXxx
	env    []string
	work   string // scratch directory, removed by Close
	bin    string
}

// Build compiles the test binary of the package in dir with the fuzzing
// instrumentation of target (go test -c -fuzz), with env added to the
// go command's environment.
func Build(ctx context.Context, dir, target string, env []string) (*Fuzzer, error) {
	work, err := procgroup.MkdirTemp("", "dowse-gofuzz-")
	if err != nil {
		return nil, fmt.Errorf("go test -fuzz for %s: %w", target, err)
	}
	f := &Fuzzer{dir: dir, target: target, env: env, work: work, bin: filepath.Join(work, "fuzz.test")}
	cmd := procgroup.Command(ctx, "go", "test", "-c", "-o", f.bin, "-fuzz=^"+regexp.QuoteMeta(target)+"$", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := procgroup.CombinedOutput(cmd); err != nil {
		f.Close()
		return nil, fmt.Errorf("go test -c -fuzz for %s: %w\n%s", target, err, bytes.TrimSpace(out))
	}
	return f, nil
}

// Close removes the fuzzer's files.
func (f *Fuzzer) Close() {
	procgroup.RemoveAll(f.work)
}

// Result is what a fuzzing run found, as files of Go's corpus format.
type Result struct {
	Interesting [][]byte // inputs the fuzzer kept for new coverage (its cache)
	Crashers    [][]byte // inputs on which the target failed
	Output      string   // the fuzzer's last lines of output
}

// Run fuzzes the target for d with workers processes (0: the fuzzer's
// default), starting from seeds (files of Go's corpus format, as the
// package's testdata/fuzz/FuzzXxx would hold; they must pass, or the
// fuzzer stops at its baseline) and the target's f.Add seeds. A run that
// overruns d by more than a grace period is killed.
func (f *Fuzzer) Run(ctx context.Context, seeds [][]byte, d time.Duration, workers int) (*Result, error) {
	run, err := os.MkdirTemp(f.work, "run-")
	if err != nil {
		return nil, fmt.Errorf("go test -fuzz for %s: %w", f.target, err)
	}
	defer os.RemoveAll(run)
	cwd := filepath.Join(run, "pkg")
	if err := mirror(f.dir, cwd, "testdata"); err != nil {
		return nil, fmt.Errorf("go test -fuzz for %s: %w", f.target, err)
	}
	if err := mirror(filepath.Join(f.dir, "testdata"), filepath.Join(cwd, "testdata"), "fuzz"); err != nil {
		return nil, fmt.Errorf("go test -fuzz for %s: %w", f.target, err)
	}
	corpus := filepath.Join(cwd, "testdata", "fuzz", f.target)
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		return nil, fmt.Errorf("go test -fuzz for %s: %w", f.target, err)
	}
	seeded := map[string]bool{}
	for i, s := range seeds {
		name := "seed-" + strconv.Itoa(i)
		seeded[name] = true
		if err := os.WriteFile(filepath.Join(corpus, name), s, 0o644); err != nil {
			return nil, fmt.Errorf("go test -fuzz for %s: %w", f.target, err)
		}
	}
	cache := filepath.Join(run, "cache")
	args := []string{"-test.run=^$", "-test.fuzz=^" + regexp.QuoteMeta(f.target) + "$",
		"-test.fuzztime=" + d.String(), "-test.fuzzcachedir=" + cache}
	if workers > 0 {
		args = append(args, "-test.parallel="+strconv.Itoa(workers))
	}
	grace := 20*time.Second + d/2
	rctx, cancel := context.WithTimeout(ctx, d+grace)
	defer cancel()
	cmd := procgroup.Command(rctx, f.bin, args...)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), f.env...)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := procgroup.Run(cmd)
	res := &Result{Output: tail(out.String(), 20)}
	if res.Interesting, err = readFiles(filepath.Join(cache, f.target), nil); err != nil {
		return nil, err
	}
	if res.Crashers, err = readFiles(corpus, seeded); err != nil {
		return nil, err
	}
	var exit *exec.ExitError
	switch {
	case runErr == nil:
	case rctx.Err() != nil && ctx.Err() == nil:
		// Killed after the grace period: what it found so far counts.
	case errors.As(runErr, &exit) && len(res.Crashers) > 0:
		// A failing input ends go test -fuzz with an error.
	case ctx.Err() != nil:
		return res, ctx.Err()
	case errors.As(runErr, &exit) && endedAtFuzztime(out.String(), f.target):
		// The fuzzer's own race at the end of -fuzztime, not a failure.
	default:
		return res, fmt.Errorf("go test -fuzz for %s: %w\n%s", f.target, runErr, res.Output)
	}
	return res, nil
}

// mirror makes dst a directory of symbolic links to the entries of src,
// except skip; a missing src gives an empty dst.
func mirror(src, dst, skip string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == skip {
			continue
		}
		if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// readFiles reads the regular files of dir but skip, in name order; a
// missing dir has none.
func readFiles(dir string, skip map[string]bool) ([][]byte, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the fuzzer's corpus: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() && !skip[e.Name()] {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var out [][]byte
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, fmt.Errorf("reading the fuzzer's corpus: %w", err)
		}
		out = append(out, data)
	}
	return out, nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := bytes.Split(bytes.TrimSpace([]byte(s)), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// endedAtFuzztime reports whether output is that of a go test -fuzz run of
// target that failed only with "context deadline exceeded" as -fuzztime
// ran out: a race in Go's fuzzing coordinator (go.dev/issue/75804, fixed
// in Go 1.27) that reports the end of the time as a failure of the target
// when a worker is still running, as happens on a loaded machine. Such a
// run wrote no failing input; what it found is complete.
func endedAtFuzztime(output, target string) bool {
	lines := strings.Split(output, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "--- FAIL: "+target+" (") {
			return i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == context.DeadlineExceeded.Error() &&
				(i+2 >= len(lines) || !strings.HasPrefix(lines[i+2], " "))
		}
	}
	return false
}
