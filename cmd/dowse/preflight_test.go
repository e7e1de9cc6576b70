package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPatternDir(t *testing.T) {
	tests := []struct {
		pattern, dir string
		ok           bool
	}{
		{".", ".", true},
		{"./x", "x", true},
		{"./...", ".", true},
		{"./x/...", "x", true},
		{"./x/y...", "x", true},
		{"../x/...", "../x", true},
		{"..", "..", true},
		{"/abs/x/...", "/abs/x", true},
		{"example.com/x/...", "", false},
		{"all", "", false},
		{"...", "", false},
	}
	for _, tt := range tests {
		dir, ok := patternDir(tt.pattern)
		if ok != tt.ok || ok && filepath.Clean(dir) != filepath.FromSlash(tt.dir) {
			t.Errorf("patternDir(%q) = %q, %v; want %q, %v", tt.pattern, dir, ok, tt.dir, tt.ok)
		}
	}
}

func TestPreflight(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "mod")
	for _, d := range []string{filepath.Join(mod, "sub"), filepath.Join(root, "nomod")} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/mod\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "file"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir      string
		patterns []string
		want     string // part of the error; "" for none
	}{
		{mod, []string{"./..."}, ""},
		{filepath.Join(mod, "sub"), []string{".", "../...", "example.com/mod/..."}, ""},
		{filepath.Join(root, "nomod"), []string{"."}, "not in a Go module (no go.mod found in " + filepath.Join(root, "nomod") + " or above); run dowse inside a module"},
		{filepath.Join(root, "missing"), []string{"."}, "-C " + filepath.Join(root, "missing") + ": the directory does not exist"},
		{filepath.Join(mod, "file"), []string{"."}, "not a directory"},
		{mod, []string{"./missing"}, "pattern ./missing matches no packages: " + filepath.Join(mod, "missing") + " does not exist"},
		{mod, []string{"./missing/..."}, "pattern ./missing/... matches no packages"},
		{mod, []string{"./file"}, "pattern ./file matches no packages: " + filepath.Join(mod, "file") + " is not a directory"},
	}
	for _, tt := range tests {
		err := preflight(tt.dir, tt.patterns)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("preflight(%s, %q): %v", tt.dir, tt.patterns, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("preflight(%s, %q) = %v, want %q", tt.dir, tt.patterns, err, tt.want)
		}
	}
}
