package engine

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/load"
)

// Errors of single targets leave the file to the others; anything else
// fails the file.
func TestTargetErrors(t *testing.T) {
	a := &emit.TargetError{Target: "PutA", Err: errors.New("bad type")}
	b := &emit.TargetError{Target: "PutB", Err: errors.New("bad value")}
	tes, other := targetErrors(errors.Join(a, fmt.Errorf("wrapped: %w", b)))
	if other || len(tes) != 2 || tes[0] != a || tes[1] != b {
		t.Errorf("targetErrors = %v, %v; want both target errors and nothing else", tes, other)
	}
	if _, other := targetErrors(errors.Join(a, errors.New("disk full"))); !other {
		t.Error("an error of the file was taken for target errors only")
	}
}

// A target's files are its generated test file, if it has rows, and its
// own corpus directories, not another fuzz target's.
func TestTargetFiles(t *testing.T) {
	dir := filepath.FromSlash("/m/p")
	files := []string{
		filepath.Join(dir, "fuzz_dowse_test.go"),
		filepath.Join(dir, "testdata", "fuzz", "FuzzA", "dowse-1"),
		filepath.Join(dir, "testdata", "fuzz", "FuzzDowseAFailures", "dowse-2"),
		filepath.Join(dir, "testdata", "fuzz", "FuzzAB", "dowse-3"),
	}
	fuzzA := &load.Target{Name: "FuzzA", Kind: load.KindFuzz}
	got := targetFiles(fuzzA, &Result{Rows: []emit.Row{{}}}, "FuzzDowseAFailures", files)
	if want := files[:3]; !reflect.DeepEqual(got, want) {
		t.Errorf("files of FuzzA = %v, want %v", got, want)
	}
	got = targetFiles(fuzzA, &Result{}, "FuzzDowseAFailures", files)
	if want := files[1:3]; !reflect.DeepEqual(got, want) {
		t.Errorf("files of FuzzA without rows = %v, want %v", got, want)
	}
}

// TestRevert checks that generated test files whose tests did not build
// are put back as they were (an earlier file restored, a new one removed,
// corpus files left alone) and that their targets report the error.
func TestRevert(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "a_dowse_test.go")
	created := filepath.Join(dir, "b_dowse_auto_test.go")
	corpus := filepath.Join(dir, "testdata", "fuzz", "FuzzX", "dowse-1")
	for name, content := range map[string]string{old: "package p // old\n", created: "package p // broken\n", corpus: "go test fuzz v1\nint(1)\n"} {
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	before := map[string][]byte{old: []byte("package p // the previous run's\n")}
	ta, tb := &load.Target{Name: "A"}, &load.Target{Name: "B"}
	tc := &load.Target{Name: "C"} // its file did not change
	byResult := map[*load.Target]*Result{
		ta: {Target: ta, Report: &explore.Report{}, Changed: []string{old, corpus}},
		tb: {Target: tb, Report: &explore.Report{}, Changed: []string{created}},
		tc: {Target: tc, Report: &explore.Report{}},
	}
	var stderr strings.Builder
	g := &runner{cfg: Config{Stderr: &stderr}, changed: map[string]bool{old: true, created: true, corpus: true}}
	g.revert(dir, before, byResult, errNotBuilt)
	if data, _ := os.ReadFile(old); string(data) != "package p // the previous run's\n" {
		t.Errorf("%s = %q, want the previous content", old, data)
	}
	if _, err := os.Stat(created); !os.IsNotExist(err) {
		t.Errorf("%s still exists (%v)", created, err)
	}
	if _, err := os.Stat(corpus); err != nil {
		t.Errorf("corpus file removed: %v", err)
	}
	for _, tg := range []*load.Target{ta, tb} {
		if byResult[tg].Err == nil {
			t.Errorf("%s: no error reported", tg.Name)
		}
	}
	if byResult[tc].Err != nil {
		t.Errorf("C: error %v, though its file did not change", byResult[tc].Err)
	}
	if g.stats.Errors != 2 || g.changed[old] || g.changed[created] || !g.changed[corpus] {
		t.Errorf("errors %d, changed %v", g.stats.Errors, g.changed)
	}
}

// TestConfirmStopped checks that a confirmation cut short by the run's
// stop is not reported as a bug: confirmRows gives up at once, and the
// targets whose files are put back say the stop came first.
func TestConfirmStopped(t *testing.T) {
	calls := 0
	verify := func([]string) (map[string][]string, error) {
		calls++
		return nil, errConfirmStopped
	}
	g := &runner{}
	if err := g.confirmRows(nil, nil, verify); !errors.Is(err, errConfirmStopped) || calls != 1 {
		t.Fatalf("confirmRows = %v after %d calls, want errConfirmStopped after 1", err, calls)
	}
	dir := t.TempDir()
	created := filepath.Join(dir, "b_dowse_auto_test.go")
	if err := os.WriteFile(created, []byte("package p\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	tb := &load.Target{Name: "B"}
	byResult := map[*load.Target]*Result{tb: {Target: tb, Report: &explore.Report{}, Changed: []string{created}}}
	g = &runner{cfg: Config{Stderr: io.Discard}, changed: map[string]bool{created: true}}
	g.revert(dir, nil, byResult, errConfirmStopped)
	if err := byResult[tb].Err; err == nil || strings.Contains(err.Error(), "bug") || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("B: error %v, want one saying the stop came first, not a bug", err)
	}
}
