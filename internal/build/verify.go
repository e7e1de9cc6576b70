package build

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/procgroup"
)

// verifyTimeout bounds a run of generated tests by FailingSubtests.
const verifyTimeout = 2 * time.Minute

// FailingSubtests builds p's tests as they are on disk, uninstrumented
// (the generated files included; an error if they do not build), runs
// the test functions tests (if any) in dir
// (the copy of the package directory that workers run in, so that files
// the code writes stay out of the workspace), and returns the subtests
// that failed, by test function. A test that fails outside any subtest is
// reported with the subtest "".
func (w *Work) FailingSubtests(ctx context.Context, cfg Config, p *load.Package, dir string, tests []string) (map[string][]string, error) {
	bin, err := w.buildTests(ctx, cfg, p)
	if err != nil {
		return nil, err
	}
	if len(tests) == 0 {
		return nil, nil // they build
	}
	ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	return runFailing(ctx, bin, dir, cfg.Env, p.Path, tests)
}

// buildTests builds p's tests as they are on disk, uninstrumented, into
// a binary of its own in the work directory.
func (w *Work) buildTests(ctx context.Context, cfg Config, p *load.Package) (string, error) {
	bin := filepath.Join(w.Dir, "verify", strconv.Itoa(w.n), binaryName(p.Path))
	w.n++
	if err := os.MkdirAll(filepath.Dir(bin), 0o777); err != nil {
		return "", err
	}
	args := append([]string{"test", "-c", "-o", bin}, cfg.BuildFlags...)
	args = append(args, p.Path)
	build := procgroup.Command(ctx, "go", args...)
	build.Dir = p.Module.Dir
	env, err := w.goEnv(cfg.Env)
	if err != nil {
		return "", err
	}
	build.Env = env
	if out, err := procgroup.CombinedOutput(build); err != nil {
		return "", fmt.Errorf("building the generated tests of %s: %v\n%s", p.Path, err, out)
	}
	return bin, nil
}

// PassingSubtests builds p's tests as they are on disk, like
// FailingSubtests, and runs the subtests subs of the test function test
// in dir with env added to the environment (DOWSE_REPRODUCE=1, so that
// failures tables run their rows); it returns those that passed. A
// subtest that panics ends the binary: the others that did not run yet
// are run again.
func (w *Work) PassingSubtests(ctx context.Context, cfg Config, p *load.Package, dir, test string, subs, env []string) ([]string, error) {
	bin, err := w.buildTests(ctx, cfg, p)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	var passed []string
	pending := slices.Clone(subs)
	for runs := 0; len(pending) > 0 && runs < maxVerifyRuns; runs++ {
		run := procgroup.Command(ctx, bin, "-test.run="+anchored([]string{test})+"/"+anchored(pending), "-test.v", "-test.count=1")
		run.Dir = dir
		run.Env = append(withEnv(cfg.Env, "GOWORK=off"), env...)
		out, _ := procgroup.CombinedOutput(run)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rep := parseTestOutput(out)
		passed = append(passed, rep.passed[test]...)
		if rep.panicked == "" {
			break
		}
		done := map[string]bool{}
		for _, s := range append(rep.passed[test], rep.failed[test]...) {
			done[s] = true
		}
		before := len(pending)
		pending = slices.DeleteFunc(pending, func(s string) bool { return done[s] })
		if len(pending) == before {
			break
		}
	}
	return passed, nil
}

// maxVerifyRuns bounds the runs of the test binary by runFailing.
const maxVerifyRuns = 64

// runFailing runs the test functions tests of the test binary bin in
// dir, together as go test runs them, and returns the subtests that
// failed. A subtest that panics ends the binary, and the tests after it
// never run: then the binary is run again on the test functions that did
// not finish, the panicking one without the subtests that failed in it
// (-test.skip), until every test function has run to its end.
func runFailing(ctx context.Context, bin, dir string, env []string, pkg string, tests []string) (map[string][]string, error) {
	failing := map[string][]string{}
	pending := slices.Clone(tests)
	skips := map[string][]string{} // test function -> subtests not to run again
	for runs := 0; len(pending) > 0; runs++ {
		if runs == maxVerifyRuns {
			return nil, fmt.Errorf("running the generated tests of %s: still panicking after %d runs", pkg, runs)
		}
		batch := pending
		for _, t := range pending {
			if len(skips[t]) > 0 {
				batch = []string{t} // -test.skip patterns apply to every test run
				break
			}
		}
		args := []string{"-test.run=" + anchored(batch), "-test.v", "-test.count=1"}
		if len(batch) == 1 && len(skips[batch[0]]) > 0 {
			args = append(args, "-test.skip="+anchored(batch)+"/"+anchored(skips[batch[0]]))
		}
		run := procgroup.Command(ctx, bin, args...)
		run.Dir = dir
		run.Env = withEnv(env, "GOWORK=off")
		out, err := procgroup.CombinedOutput(run)
		rep := parseTestOutput(out)
		for test, subs := range rep.failed {
			for _, sub := range subs {
				if !slices.Contains(failing[test], sub) {
					failing[test] = append(failing[test], sub)
				}
			}
		}
		if rep.panicked == "" {
			if err != nil && len(rep.failed) == 0 {
				return nil, fmt.Errorf("running the generated tests of %s: %v\n%s", pkg, err, lastLines(out, 20))
			}
			// The batch ran to its end.
			pending = slices.DeleteFunc(pending, func(t string) bool { return slices.Contains(batch, t) })
			continue
		}
		// The panicking test is run again without its failed subtests;
		// the tests that finished are done; the others run again.
		var again []string
		for _, t := range pending {
			switch {
			case t == rep.panicked:
				var subs []string
				for _, sub := range rep.failed[t] {
					if sub != "" && !slices.Contains(skips[t], sub) {
						subs = append(subs, sub)
					}
				}
				if len(subs) == 0 {
					continue // it panicked outside its subtests: reported with ""
				}
				skips[t] = append(skips[t], subs...)
				again = append(again, t)
			case !rep.finished[t]:
				again = append(again, t)
			}
		}
		pending = again
	}
	return failing, nil
}

// anchored is a -test.run pattern matching exactly the names.
func anchored(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}

// testReport is what the -test.v output of a test binary says.
type testReport struct {
	failed   map[string][]string // failed subtests by test function ("" for the function itself)
	passed   map[string][]string // passed subtests by test function
	finished map[string]bool     // test functions that ran to their end
	panicked string              // the test function that panicked, ending the binary
}

// parseTestOutput reads the -test.v output of a test binary.
func parseTestOutput(out []byte) testReport {
	rep := testReport{failed: map[string][]string{}, passed: map[string][]string{}, finished: map[string]bool{}}
	lastFail := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(sc.Text(), "panic: ") && rep.panicked == "" {
			rep.panicked = lastFail
			delete(rep.finished, lastFail)
			continue
		}
		var result string
		for _, r := range []string{"--- FAIL: ", "--- PASS: ", "--- SKIP: "} {
			if strings.HasPrefix(line, r) {
				result = r
			}
		}
		if result == "" || rep.panicked != "" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(line, result), " (")
		test, sub, nested := strings.Cut(name, "/")
		if !nested {
			rep.finished[test] = true
		}
		switch {
		case result == "--- FAIL: ":
			rep.failed[test] = append(rep.failed[test], sub)
			lastFail = test
		case result == "--- PASS: " && nested:
			rep.passed[test] = append(rep.passed[test], sub)
		}
	}
	return rep
}

// lastLines returns the last n lines of out.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
