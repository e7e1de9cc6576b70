package procgroup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCommandStopsGroup starts a shell that starts a child, ends the
// context, and checks that the child (the shell's own, as compile is the
// go command's) is gone too, at once.
func TestCommandStopsGroup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process groups")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	// The child ignores SIGINT, as some do: it is killed once the shell
	// has ended.
	cmd := Command(ctx, "sh", "-c", `(trap "" INT; exec sleep 300) & echo $! > `+pidFile+"; wait")
	done := make(chan error, 1)
	go func() { done <- Run(cmd) }()
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0; {
		if data, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(data), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		if time.Now().After(deadline) {
			t.Fatal("the child did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(Grace / 2):
		t.Fatal("the command did not end at once")
	}
	time.Sleep(100 * time.Millisecond)
	if alive(pid) {
		_ = exec.Command("kill", "-9", strconv.Itoa(pid)).Run()
		t.Errorf("the child %d outlived its command", pid)
	}
}

// alive reports whether process pid runs (a zombie, killed but not yet
// reaped by its new parent, does not).
func alive(pid int) bool {
	if runtime.GOOS == "linux" {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		_, after, _ := strings.Cut(string(stat), ") ")
		return !strings.HasPrefix(after, "Z") && !strings.HasPrefix(after, "X")
	}
	return exec.Command("kill", "-0", strconv.Itoa(pid)).Run() == nil
}

// TestMkdirTemp checks that directories are recorded until removed or
// forgotten.
func TestMkdirTemp(t *testing.T) {
	tests := []struct {
		name   string
		finish func(dir string)
	}{
		{"removed", func(dir string) { _ = RemoveAll(dir) }},
		{"forgotten", Forget},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := MkdirTemp(t.TempDir(), "x-")
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			recorded := temps[dir]
			mu.Unlock()
			if !recorded {
				t.Fatalf("%s not recorded", dir)
			}
			tt.finish(dir)
			mu.Lock()
			recorded = temps[dir]
			mu.Unlock()
			if recorded {
				t.Errorf("%s still recorded", dir)
			}
		})
	}
}
