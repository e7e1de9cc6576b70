//go:build linux

package rt

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLimitMemory checks that a worker's memory bound ends a process that
// allocates beyond it (run in a child process).
func TestLimitMemory(t *testing.T) {
	if os.Getenv("DOWSE_TEST_LIMIT_CHILD") == "1" {
		limitMemory(256 << 20)
		b := make([]byte, 1<<30)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		os.Exit(0) // not reached
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLimitMemory$")
	cmd.Env = append(os.Environ(), "DOWSE_TEST_LIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child allocated 1 GiB under a 256 MiB bound:\n%s", out)
	}
	// The runtime gives up on the allocation: "out of memory", "cannot
	// allocate memory", or a fault inside the allocator.
	msg := string(out)
	if !strings.Contains(msg, "out of memory") && !strings.Contains(msg, "cannot allocate memory") && !strings.Contains(msg, "SIGSEGV") {
		t.Fatalf("the child failed, but not for memory: %v\n%s", err, out)
	}
}
