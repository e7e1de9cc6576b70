package build

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMatchPattern(t *testing.T) {
	for _, tt := range []struct {
		pattern, path string
		want          bool
	}{
		{"example.com/lib", "example.com/lib", true},
		{"example.com/lib", "example.com/lib/x", false},
		{"example.com/lib/...", "example.com/lib", true},
		{"example.com/lib/...", "example.com/lib/x/y", true},
		{"example.com/lib/...", "example.com/library", false},
		{"example.com/lib...", "example.com/library", true},
		{"example.com/.../check", "example.com/lib/check", true},
		{"example.com/.../check", "example.com/lib/checks", false},
		{"...", "strings", true},
		{"golang.org/x/.../semver", "golang.org/x/mod/semver", true},
		{"golang.org/x/mod/semver", "golang.org/x/mod/semverx", false},
	} {
		if got := MatchPattern(tt.pattern, tt.path); got != tt.want {
			t.Errorf("MatchPattern(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

// TestRewriteGoModCopies checks that the work go.mod replaces a copied
// module by its copy, whatever replace of it the user's go.mod had.
func TestRewriteGoModCopies(t *testing.T) {
	in := filepath.Join("testdata", "copies", "go.mod.in")
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := RewriteGoMod(in, data, "/work/rtmod",
		&Module{Path: "example.com/lib", Version: "v1.2.0", Copy: "/work/mods/0/example.com/lib@v1.2.0"},
		&Module{Path: "example.com/other", Version: "v0.1.0", Copy: "/work/mods/1/example.com/other@v0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "copies", "go.mod.golden"), string(out))
}
