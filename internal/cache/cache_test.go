package cache

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func key(s string) Key { return sha256.Sum256([]byte(s)) }

func TestPutGet(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("a")); ok {
		t.Fatal("hit in an empty cache")
	}
	if err := c.Put(key("a"), []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(key("a"), []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(key("a")); !ok || !bytes.Equal(got, []byte("two")) {
		t.Errorf("Get = %q, %v; want the last value put", got, ok)
	}
	if _, ok := c.Get(key("b")); ok {
		t.Error("hit for a key never put")
	}
	// No temporary file is left behind.
	matches, _ := filepath.Glob(filepath.Join(c.dir, "*", ".tmp-*"))
	if len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

// Trim evicts the least recently used entries, counting a Get as a use.
func TestTrimLRU(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c.MaxBytes = 25
	old := time.Now().Add(-time.Hour)
	for i, k := range []string{"a", "b", "c"} {
		if err := c.Put(key(k), bytes.Repeat([]byte{'x'}, 10)); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(c.path(key(k)), at, at); err != nil {
			t.Fatal(err)
		}
	}
	c.Get(key("a")) // a is now the most recently used
	if err := c.Trim(); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if _, ok := c.Get(key(k)); ok != want {
			t.Errorf("after Trim, %s present %v, want %v", k, ok, want)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/somewhere/else")
	if d, err := DefaultDir(); err != nil || d != "/somewhere/else" {
		t.Errorf("DefaultDir = %q, %v; want $%s", d, err, EnvDir)
	}
}
