package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dowse-go/dowse/internal/emit"
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
	got := targetFiles(fuzzA, &Result{Rows: []emit.Row{{}}}, files)
	if want := files[:3]; !reflect.DeepEqual(got, want) {
		t.Errorf("files of FuzzA = %v, want %v", got, want)
	}
	got = targetFiles(fuzzA, &Result{}, files)
	if want := files[1:3]; !reflect.DeepEqual(got, want) {
		t.Errorf("files of FuzzA without rows = %v, want %v", got, want)
	}
}
