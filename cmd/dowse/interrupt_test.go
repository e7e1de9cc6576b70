package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestInterrupt runs the dowse command on a PUT whose queries keep the
// solver busy, sends SIGINT while a query runs, and checks that dowse
// stops (long before its time bound), exits with status 130, writes the
// rows found so far, and leaves no worker process behind. Z3 catches SIGINT by
// default, which once made dowse ignore Ctrl-C until -max-time.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dowse and explores a module")
	}
	if runtime.GOOS != "linux" {
		t.Skip("looks for leftover workers in /proc")
	}
	bin := filepath.Join(t.TempDir(), "dowse")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/interrupt\n\ngo 1.22\n",
		"bits.go": `package interrupt

// Mix counts mismatched mirror bits, minus the set bits of the product.
func Mix(a, b uint64) int {
	n := 0
	for i := 0; i < 64; i++ {
		if (a>>i)&1 != (b>>uint(63-i))&1 {
			n++
		}
		if (a*b)>>i&1 == 1 {
			n--
		}
	}
	return n
}
`,
		"bits_test.go": `package interrupt

import "testing"

func PutMix(t *testing.T, a, b uint64) {
	if Mix(a, b) == 17 {
		t.Fatal("17")
	}
}
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "gen", "-v", "-max-time", "10m", "./...")
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// the solver is deep in the 64-bit queries 3 s into PutMix
	log, err := interruptAt(t, cmd, stderr, "exploring PutMix")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Errorf("exit: %v, want status %d\n%s", err, exitInterrupted, strings.Join(log, "\n"))
	}
	if !strings.Contains(strings.Join(log, "\n"), "interrupted by SIGINT; writing the rows found so far") {
		t.Errorf("no interruption message\n%s", strings.Join(log, "\n"))
	}
	if _, err := os.Stat(filepath.Join(dir, "bits_dowse_test.go")); err != nil {
		t.Errorf("the rows found before the interrupt were not written: %v", err)
	}
	// Workers are the instrumented test binary, started from dowse's work
	// directory; none may outlive dowse.
	time.Sleep(100 * time.Millisecond)
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), "example_com_interrupt.test") {
			t.Errorf("worker left behind: %s: %q", p, data)
		}
	}
}

// interruptAt reads the standard error of cmd, started, until a line
// that starts with prefix, lets it run 3 s more, sends it SIGINT and
// waits for it to end, failing the test if it has not within two
// minutes. It returns the lines read and cmd's Wait error.
func interruptAt(t *testing.T, cmd *exec.Cmd, stderr io.Reader, prefix string) ([]string, error) {
	t.Helper()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var log []string
	for line := range lines {
		log = append(log, line)
		if strings.HasPrefix(line, prefix) {
			break
		}
	}
	time.Sleep(3 * time.Second)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for line := range lines {
			log = append(log, line)
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		return log, err
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("dowse did not stop after SIGINT\n%s", strings.Join(log, "\n"))
		return nil, nil
	}
}
