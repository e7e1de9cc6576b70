package main

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
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
			journals, done := watchJournals(tmp)
			_, stdout, stderr, dir := runGenIn(t, files, "-json", "-cache=false", "-max-time", "20s", tc.flag, "./isolate/transfer", "./isolate/uut")
			done()
			got := summaries(t, stdout)
			for target, want := range tc.paths {
				if got[target].Paths != want {
					t.Errorf("%s: %d paths, want %d\n%s", target, got[target].Paths, want, stderr)
				}
			}
			if n, j := dials.Load(), journals.Load(); (n > 0) != tc.effects || (j > 0) != tc.effects {
				t.Errorf("%d connections to the services, journals seen %d times; want side effects %v", n, j, tc.effects)
			}
			if tc.effects {
				return
			}
			// The isolated rows are in files plain go test skips; the
			// module's tests pass with them present.
			generatedTestsPass(t, filepath.Join(dir, "isolate"))
			for _, f := range []string{"isolate/transfer/put_dowse_isolated_test.go", "isolate/uut/put_dowse_isolated_test.go"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("no isolated file: %v", err)
				}
			}
			// dowse test runs them through the sandbox: EXPECTED.md's
			// coverage with perfect isolation, and the isolated tests
			// alone neither dial nor write a journal (the package's own
			// tests call the services for real, as under go test).
			var out, errb bytes.Buffer
			if code := testMain(context.Background(), []string{"-C", dir, "-count=1", "-cover", "./isolate/transfer", "./isolate/uut"}, &out, &errb); code != 0 {
				t.Fatalf("dowse test: exit %d\n%s%s", code, out.String(), errb.String())
			}
			for _, pkg := range []string{"isolate/transfer", "isolate/uut"} {
				if !regexp.MustCompile(regexp.QuoteMeta(pkg) + `\s.*coverage: 100\.0% of statements`).MatchString(out.String()) {
					t.Errorf("dowse test -cover: %s not at 100%%:\n%s", pkg, out.String())
				}
			}
			dials.Store(0)
			journals, done = watchJournals(tmp)
			code := testMain(context.Background(), []string{"-C", dir, "-count=1", "-run", "TestDowseIsolated", "./isolate/transfer", "./isolate/uut"}, &out, &errb)
			done()
			if code != 0 || dials.Load() != 0 || journals.Load() != 0 {
				t.Errorf("dowse test -run TestDowseIsolated: exit %d, %d connections, journals seen %d times; want 0, 0, 0\n%s", code, dials.Load(), journals.Load(), errb.String())
			}
		})
	}
}

// watchJournals counts, until done is called, the times a journal.log
// file is seen below dir (the workers' TMPDIR is a fresh directory below
// it, removed when a target's exploration ends).
func watchJournals(dir string) (seen *atomic.Int64, done func()) {
	seen = new(atomic.Int64)
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && d.Name() == "journal.log" {
					seen.Add(1)
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
	return seen, func() { close(stop); <-watched }
}
