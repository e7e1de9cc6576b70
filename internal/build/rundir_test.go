package build

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestRunDir(t *testing.T) {
	pkg := t.TempDir()
	for name, content := range map[string]string{
		"a.go":                "package a\n",
		"data.json":           "{}",
		"testdata/x/in.txt":   "in",
		"sub/b.go":            "package sub\n",
		"sub/testdata/no.txt": "another package's",
	} {
		p := filepath.Join(pkg, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(pkg, "data.json"), filepath.Join(pkg, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(pkg, "sub"), filepath.Join(pkg, "linkdir")); err != nil {
		t.Fatal(err)
	}
	w := &Work{Dir: t.TempDir()}
	dir, err := w.runDir(pkg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	want := []string{"a.go", "data.json", "link.json", "testdata/x/in.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("copied %v, want %v", got, want)
	}
	// The copy is writable, and writing it leaves the original alone.
	if err := os.WriteFile(filepath.Join(dir, "link.json"), []byte("changed"), 0o666); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(pkg, "data.json")); string(data) != "{}" {
		t.Errorf("writing the copy changed the original: %q", data)
	}
}

func TestRunDirTooLarge(t *testing.T) {
	pkg := t.TempDir()
	f, err := os.Create(filepath.Join(pkg, "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxRunDirBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	w := &Work{Dir: t.TempDir()}
	if _, err := w.runDir(pkg); !errors.Is(err, errRunDirTooLarge) {
		t.Errorf("runDir of a directory over the bound: %v, want errRunDirTooLarge", err)
	}
}
