package emit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBuildConstraint: the generated file gets the source file's build
// constraint, from its //go:build line or, in a file without one, from
// its "// +build" lines, which the go command still honours there.
func TestBuildConstraint(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"none", "package p\n", ""},
		{"go:build", "//go:build linux && !race\n\npackage p\n", "//go:build linux && !race"},
		{"go:build wins", "//go:build integration\n// +build integration\n\npackage p\n", "//go:build integration"},
		{"plus build", "// +build integration\n\npackage p\n", "//go:build integration"},
		{"plus build or", "// +build linux darwin\n\npackage p\n", "//go:build linux || darwin"},
		{"plus build lines", "// +build linux darwin\n// +build cgo\n\npackage p\n", "//go:build (linux || darwin) && cgo"},
		{"plus build in doc", "// Package p.\n// +build integration\npackage p\n", ""},
		{"after a comment", "// Copyright.\n\n// +build !windows\n\npackage p\n", "//go:build !windows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(tt.src), 0o666); err != nil {
				t.Fatal(err)
			}
			got, err := buildConstraint(dir, "x_test.go")
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("buildConstraint = %q, want %q", got, tt.want)
			}
		})
	}
}
