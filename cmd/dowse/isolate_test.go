package main

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/testenv"
)

// TestIsolateBench explores the isolation benchmark (../shared/bench,
// isolate/*, copied) with and without the sandbox: with it, the paths of
// EXPECTED.md's "perfect isolation" column (PutTransferMoney 5, PutM1 3,
// PutSubmit 4), and containment: the external services are pointed at a
// loopback listener that counts connections, and the journals the
// external packages append to under $TMPDIR must not appear. Without the
// sandbox (-isolate=off), the figures of the "without isolation" column
// (2, 2, 1), and both side effects do happen, which shows the checks can
// fail.
func TestIsolateBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores the benchmark")
	}
	bench := filepath.Join("..", "..", "..", "shared", "bench")
	if _, err := os.Stat(filepath.Join(bench, "go.mod")); err != nil {
		testenv.Missing(t, "../shared/bench not present")
	}
	files := map[string]string{}
	for name, content := range readTree(t, bench) {
		if name == "go.mod" || name == "go.sum" || strings.HasPrefix(name, "isolate/") || strings.HasPrefix(name, "internal/") {
			files[name] = content
		}
	}
	var dials atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dials.Add(1)
			go func() {
				defer c.Close()
				if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
					c.Write([]byte("DECLINED\n"))
				}
			}()
		}
	}()
	t.Setenv("PROCESSOR_ADDR", ln.Addr().String())
	t.Setenv("ED_ADDR", ln.Addr().String())
	t.Setenv("BANKDB_PATH", "")

	tests := []struct {
		flag    string
		paths   map[string]int
		effects bool
	}{
		{"-isolate=auto", map[string]int{"PutTransferMoney": 5, "PutM1": 3, "PutSubmit": 4}, false},
		{"-isolate=off", map[string]int{"PutTransferMoney": 2, "PutM1": 2, "PutSubmit": 1}, true},
	}
	for _, tc := range tests {
		t.Run(tc.flag, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			dials.Store(0)
			// The workers' TMPDIR is a fresh directory below tmp, removed
			// when a target's exploration ends: watch it meanwhile.
			var journals atomic.Int64
			stop := make(chan struct{})
			watched := make(chan struct{})
			go func() {
				defer close(watched)
				for {
					filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
						if err == nil && !d.IsDir() && d.Name() == "journal.log" {
							journals.Add(1)
						}
						return nil
					})
					select {
					case <-stop:
						return
					case <-time.After(10 * time.Millisecond):
					}
				}
			}()
			_, stdout, stderr, _ := runGenIn(t, files, "-json", "-cache=false", "-max-time", "20s", tc.flag, "./isolate/transfer", "./isolate/uut")
			close(stop)
			<-watched
			got := summaries(t, stdout)
			for target, want := range tc.paths {
				if got[target].Paths != want {
					t.Errorf("%s: %d paths, want %d\n%s", target, got[target].Paths, want, stderr)
				}
			}
			if n, j := dials.Load(), journals.Load(); (n > 0) != tc.effects || (j > 0) != tc.effects {
				t.Errorf("%d connections to the services, journals seen %d times; want side effects %v", n, j, tc.effects)
			}
		})
	}
}
