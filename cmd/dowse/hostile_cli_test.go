package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildDowse builds the dowse command into a temporary directory.
func buildDowse(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dowse")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// copyHostile copies the module testdata/hostile/<name> into a temporary
// directory and returns it.
func copyHostile(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range readTree(t, filepath.Join("..", "..", "testdata", "hostile", name)) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// signalRun is a dowse process whose standard error is read line by line.
type signalRun struct {
	cmd   *exec.Cmd
	lines chan string
	log   []string
}

// startDowse starts bin with args in dir, with TMPDIR set to tmp.
func startDowse(t *testing.T, bin, dir, tmp string, args ...string) *signalRun {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &signalRun{cmd: cmd, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	return r
}

// waitFor reads lines until one starts with prefix.
func (r *signalRun) waitFor(t *testing.T, prefix string) {
	t.Helper()
	for line := range r.lines {
		r.log = append(r.log, line)
		if strings.HasPrefix(line, prefix) {
			return
		}
	}
	t.Fatalf("dowse ended before %q\n%s", prefix, r.output())
}

// wait waits for the process to end (at most d) and returns its exit
// status.
func (r *signalRun) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		for line := range r.lines {
			r.log = append(r.log, line)
		}
		done <- r.cmd.Wait()
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(d):
		_ = r.cmd.Process.Kill()
		t.Fatalf("dowse did not stop within %v of the signal\n%s", d, r.output())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return r.cmd.ProcessState.ExitCode()
}

func (r *signalRun) output() string { return strings.Join(r.log, "\n") }

// leftovers lists what is left in tmp, and the processes whose command
// line names a path in tmp (the go command, the compiler and linker, the
// workers).
func leftovers(t *testing.T, tmp string) []string {
	t.Helper()
	var left []string
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		left = append(left, filepath.Join(tmp, e.Name()))
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), tmp) {
			left = append(left, "process "+p+": "+strings.ReplaceAll(string(data), "\x00", " "))
		}
	}
	return left
}

// TestHostileCLISignals stops dowse gen with SIGINT or SIGTERM while it
// builds the worker binary and while it explores, and checks the exit
// status (128 + the signal), that no temporary directory (dowse's, the
// go command's) and no child process (go test -c, compile, link, the
// workers) is left, and that a run stopped while exploring writes the
// rows found so far as a file that compiles.
func TestHostileCLISignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dowse and explores a module")
	}
	if runtime.GOOS != "linux" {
		t.Skip("looks for leftover processes in /proc")
	}
	bin := buildDowse(t)
	cases := []struct {
		name  string
		sig   syscall.Signal
		after string        // the progress line after which the signal is sent
		delay time.Duration // and how long after it
		code  int
		wrote bool // rows are written
	}{
		{"term-load", syscall.SIGTERM, "loading", 0, exitTerminated, false},
		{"term-build", syscall.SIGTERM, "building", 500 * time.Millisecond, exitTerminated, false},
		{"int-build", syscall.SIGINT, "building", 500 * time.Millisecond, exitInterrupted, false},
		{"term-explore", syscall.SIGTERM, "exploring PutMix", 2 * time.Second, exitTerminated, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyHostile(t, "sigmix")
			tmp := t.TempDir()
			r := startDowse(t, bin, dir, tmp, "gen", "-v", "-cache=false", "-max-time", "10m", "./...")
			r.waitFor(t, tc.after)
			time.Sleep(tc.delay)
			if err := r.cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			if code := r.wait(t, time.Minute); code != tc.code {
				t.Errorf("exit status %d, want %d\n%s", code, tc.code, r.output())
			}
			if strings.Contains(r.output(), "no targets") {
				t.Errorf("a stopped run says it found no targets\n%s", r.output())
			}
			time.Sleep(200 * time.Millisecond) // children ending after dowse
			if left := leftovers(t, tmp); len(left) > 0 {
				t.Errorf("left behind:\n%s\n%s", strings.Join(left, "\n"), r.output())
			}
			gen := filepath.Join(dir, "bits_dowse_test.go")
			data, err := os.ReadFile(gen)
			if !tc.wrote {
				if err == nil {
					t.Errorf("stopped while building, yet wrote %s:\n%s", gen, data)
				}
				return
			}
			if err != nil {
				t.Fatalf("no rows written: %v\n%s", err, r.output())
			}
			for _, test := range []string{"func TestDowsePutEasy(", "func TestDowsePutMix("} {
				if !strings.Contains(string(data), test) {
					t.Errorf("the generated file lacks %s:\n%s", test, data)
				}
			}
			vet := exec.Command("go", "vet", "./...")
			vet.Dir = dir
			if out, err := vet.CombinedOutput(); err != nil {
				t.Errorf("the generated file does not compile: %v\n%s", err, out)
			}
		})
	}
}

// TestHostileCLISecondSignal sends SIGINT twice: the second stops dowse
// at once, with the status of the first, removing its temporary
// directories and leaving no partly written file.
func TestHostileCLISecondSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dowse and explores a module")
	}
	if runtime.GOOS != "linux" {
		t.Skip("looks for leftover processes in /proc")
	}
	bin := buildDowse(t)
	dir := copyHostile(t, "sigmix")
	before := readTree(t, dir)
	tmp := t.TempDir()
	r := startDowse(t, bin, dir, tmp, "gen", "-v", "-cache=false", "-max-time", "10m", "./...")
	r.waitFor(t, "building")
	time.Sleep(500 * time.Millisecond)
	for i := 0; i < 2; i++ {
		if err := r.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		r.waitFor(t, "dowse gen: SIGINT")
	}
	if code := r.wait(t, 10*time.Second); code != exitInterrupted {
		t.Errorf("exit status %d, want %d\n%s", code, exitInterrupted, r.output())
	}
	time.Sleep(200 * time.Millisecond)
	if left := leftovers(t, tmp); len(left) > 0 {
		t.Errorf("left behind:\n%s\n%s", strings.Join(left, "\n"), r.output())
	}
	for name := range readTree(t, dir) {
		if _, ok := before[name]; !ok {
			t.Errorf("wrote %s", name)
		}
	}
}

// TestHostileCLIRelativeReplace runs dowse test on a module whose go.mod
// replaces a dependency by a relative directory (../limits) and whose
// package makes an isolated call, so that go test runs in a copy of the
// module: the replacement must still be found.
func TestHostileCLIRelativeReplace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := copyHostile(t, "relreplace")
	var out, errb bytes.Buffer
	code := testMain(context.Background(), []string{"-C", filepath.Join(dir, "app"), "-count=1", "./..."}, &out, &errb)
	if code != 0 {
		t.Fatalf("dowse test: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "ok  \texample.com/app") {
		t.Errorf("dowse test did not run the tests:\n%s%s", out.String(), errb.String())
	}
}

// TestHostileCLIMessages gives the commands input that once gave a
// message about something else (the go binary, code that does not
// compile), no message and status 0, or the same error several times,
// and checks the status and what the message says.
func TestHostileCLIMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	nomod := copyHostile(t, "nomodule")
	mod := copyHostile(t, "sigmix")
	bad := copyHostile(t, "badcompile")
	missing := filepath.Join(mod, "nonexistent")
	mains := map[string]func(args []string, stdout, stderr *bytes.Buffer) int{
		"gen": func(args []string, stdout, stderr *bytes.Buffer) int {
			return genMain(context.Background(), append([]string{"-cache=false"}, args...), stdout, stderr)
		},
		"detect": func(args []string, stdout, stderr *bytes.Buffer) int { return detectMain(args, stdout, stderr) },
		"survey": func(args []string, stdout, stderr *bytes.Buffer) int { return surveyMain(args, stdout, stderr) },
		"test": func(args []string, stdout, stderr *bytes.Buffer) int {
			return testMain(context.Background(), args, stdout, stderr)
		},
	}
	notInModule := "not in a Go module (no go.mod found in " + nomod + " or above); run dowse inside a module"
	tests := []struct {
		cmd  string
		args []string
		code int
		want string // in standard error
		not  string // in neither output
		once string // exactly once in both outputs
	}{
		{cmd: "gen", args: []string{"-C", nomod, "."}, code: 1, want: notInModule},
		{cmd: "detect", args: []string{"-C", nomod, "."}, code: 1, want: notInModule},
		{cmd: "survey", args: []string{"-C", nomod, "."}, code: 1, want: notInModule},
		{cmd: "test", args: []string{"-C", nomod, "."}, code: 1, want: notInModule},
		{cmd: "gen", args: []string{"-C", mod, "./missing"}, code: 1, want: "pattern ./missing matches no packages: " + filepath.Join(mod, "missing") + " does not exist", not: "compile"},
		{cmd: "gen", args: []string{"-C", mod, "./missing/..."}, code: 1, want: "pattern ./missing/... matches no packages"},
		{cmd: "detect", args: []string{"-C", mod, "./missing"}, code: 1, want: "pattern ./missing matches no packages"},
		{cmd: "gen", args: []string{"-C", mod, "example.com/sigmix/nothere"}, code: 1, want: "the patterns name no packages: no required module provides package example.com/sigmix/nothere", not: "compile"},
		{cmd: "gen", args: []string{"-C", missing, "./..."}, code: 1, want: "-C " + missing + ": the directory does not exist", not: "go: "},
		{cmd: "detect", args: []string{"-C", missing, "./..."}, code: 1, want: "-C " + missing + ": the directory does not exist", not: "go: "},
		{cmd: "survey", args: []string{"-C", missing, "./..."}, code: 1, want: "-C " + missing + ": the directory does not exist", not: "go: "},
		{cmd: "test", args: []string{"-C", missing, "./..."}, code: 1, want: "-C " + missing + ": the directory does not exist", not: "go: "},
		{cmd: "detect", args: []string{"-C", bad, "."}, code: 1, once: `cannot use "x" (untyped string constant) as int value in return statement`},
		{cmd: "detect", args: []string{"-C", bad, "-json", "."}, code: 1, once: `cannot use \"x\" (untyped string constant) as int value in return statement`},
	}
	for _, tt := range tests {
		t.Run(tt.cmd+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := mains[tt.cmd](tt.args, &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code != tt.code {
				t.Errorf("exit status %d, want %d\n%s", code, tt.code, out)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("standard error lacks %q:\n%s", tt.want, out)
			}
			if tt.not != "" && strings.Contains(out, tt.not) {
				t.Errorf("the output says %q:\n%s", tt.not, out)
			}
			if tt.once != "" {
				if n := strings.Count(out, tt.once); n != 1 {
					t.Errorf("%q is said %d times, want once:\n%s", tt.once, n, out)
				}
			}
		})
	}
}

// TestHostileCLIJSONWriteError explores a target whose generated file
// cannot be written (a directory has its name): the JSON summary, which
// scripts read, carries the error, and the status is 1.
func TestHostileCLIJSONWriteError(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	dir := copyHostile(t, "wrongput")
	if err := os.Mkdir(filepath.Join(dir, "w_dowse_test.go"), 0o777); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := genMain(context.Background(), []string{"-C", dir, "-json", "-cache=false", "-max-time", "5s", "-run", "^PutOK$", "."}, &stdout, &stderr)
	if code != exitError {
		t.Errorf("exit status %d, want %d\n%s%s", code, exitError, stdout.String(), stderr.String())
	}
	var sum struct {
		Target string
		Error  string
		Runs   int
	}
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if sum.Target != "PutOK" || sum.Runs == 0 || !strings.Contains(sum.Error, "could not be written") || !strings.Contains(sum.Error, "w_dowse_test.go") {
		t.Errorf("summary %+v: want PutOK explored, with an error saying its file could not be written\n%s", sum, stdout.String())
	}
}

// TestHostileCLITestSignal stops dowse test with SIGTERM while go test
// runs a test that takes minutes: dowse exits 143 at once, and neither
// the go command nor the test binary outlives it.
func TestHostileCLITestSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dowse and runs go test")
	}
	if runtime.GOOS != "linux" {
		t.Skip("looks for leftover processes in /proc")
	}
	bin := buildDowse(t)
	dir := copyHostile(t, "slowtest")
	tmp := t.TempDir()
	r := startDowse(t, bin, dir, tmp, "test", "-count=1", "-v", ".")
	r.waitFor(t, "waiting")
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := r.wait(t, 30*time.Second); code != exitTerminated {
		t.Errorf("exit status %d, want %d\n%s", code, exitTerminated, r.output())
	}
	time.Sleep(200 * time.Millisecond)
	if left := leftovers(t, tmp); len(left) > 0 {
		t.Errorf("left behind:\n%s\n%s", strings.Join(left, "\n"), r.output())
	}
}
