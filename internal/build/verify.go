package build

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/procgroup"
)

// verifyTimeout bounds a run of generated tests by FailingSubtests.
const verifyTimeout = 2 * time.Minute

// FailingSubtests builds p's tests as they are on disk, uninstrumented
// (the generated files included), runs the test functions tests in dir
// (the copy of the package directory that workers run in, so that files
// the code writes stay out of the workspace), and returns the subtests
// that failed, by test function. A test that fails outside any subtest is
// reported with the subtest "".
func (w *Work) FailingSubtests(ctx context.Context, cfg Config, p *load.Package, dir string, tests []string) (map[string][]string, error) {
	if len(tests) == 0 {
		return nil, nil
	}
	bin := filepath.Join(w.Dir, "verify", strconv.Itoa(w.n), binaryName(p.Path))
	w.n++
	if err := os.MkdirAll(filepath.Dir(bin), 0o777); err != nil {
		return nil, err
	}
	args := append([]string{"test", "-c", "-o", bin}, cfg.BuildFlags...)
	args = append(args, p.Path)
	build := procgroup.Command(ctx, "go", args...)
	build.Dir = p.Module.Dir
	env, err := w.goEnv(cfg.Env)
	if err != nil {
		return nil, err
	}
	build.Env = env
	if out, err := procgroup.CombinedOutput(build); err != nil {
		return nil, fmt.Errorf("building the generated tests of %s: %v\n%s", p.Path, err, out)
	}
	quoted := make([]string, len(tests))
	for i, t := range tests {
		quoted[i] = regexp.QuoteMeta(t)
	}
	ctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	run := procgroup.Command(ctx, bin, "-test.run=^("+strings.Join(quoted, "|")+")$", "-test.v", "-test.count=1")
	run.Dir = dir
	run.Env = withEnv(cfg.Env, "GOWORK=off")
	out, err := procgroup.CombinedOutput(run)
	if err == nil {
		return nil, nil
	}
	failing := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		name, ok := strings.CutPrefix(line, "--- FAIL: ")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, " (")
		test, sub, _ := strings.Cut(name, "/")
		failing[test] = append(failing[test], sub)
	}
	if len(failing) == 0 {
		return nil, fmt.Errorf("running the generated tests of %s: %v\n%s", p.Path, err, lastLines(out, 20))
	}
	return failing, nil
}

// lastLines returns the last n lines of out.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
