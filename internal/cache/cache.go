// Package cache keeps dowse gen's results on disk between runs: small
// values stored under keys that hash everything they depend on (the
// caller computes the keys), written atomically, and trimmed to a size
// bound by evicting the least recently used entries.
//
// The cache lives in $DOWSE_CACHE, or in dowse under os.UserCacheDir. An
// entry is one file, <dir>/v1/<xx>/<key in hex>; Get marks an entry used
// by setting its modification time, and Trim removes the entries used
// longest ago until the total size is at most the bound (MaxBytes, 256
// MiB, unless the Cache says otherwise). Concurrent dowse processes may
// share a cache: writes are a temporary file renamed into place, so a
// reader sees a whole entry or none.
package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// EnvDir names the environment variable that sets the cache directory.
const EnvDir = "DOWSE_CACHE"

// MaxBytes is the default bound on the total size of the entries.
const MaxBytes = 256 << 20

// Key identifies an entry: a SHA-256 of what the value depends on.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Cache is a directory of entries.
type Cache struct {
	dir      string // the versioned directory holding the entries
	MaxBytes int64  // bound on the total size of the entries kept by Trim
}

// DefaultDir is $DOWSE_CACHE if set, else dowse under the user's cache
// directory.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the cache directory (set %s): %w", EnvDir, err)
	}
	return filepath.Join(d, "dowse"), nil
}

// Open returns the cache in dir, creating the directory if need be.
func Open(dir string) (*Cache, error) {
	v := filepath.Join(dir, "v1")
	if err := os.MkdirAll(v, 0o777); err != nil {
		return nil, fmt.Errorf("opening the result cache: %w", err)
	}
	return &Cache{dir: v, MaxBytes: MaxBytes}, nil
}

func (c *Cache) path(k Key) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s)
}

// Get returns the value stored under k, and whether there is one; it
// marks the entry used.
func (c *Cache) Get(k Key) ([]byte, bool) {
	p := c.path(k)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // recently used; a failure only makes eviction less fair
	return data, true
}

// Put stores data under k, replacing any entry there atomically.
func (c *Cache) Put(k Key, data []byte) error {
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return fmt.Errorf("writing a cache entry: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("writing a cache entry: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing a cache entry: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing a cache entry: %w", err)
	}
	return nil
}

// Trim removes the least recently used entries until the entries take
// at most c.MaxBytes. Temporary files of writers that died an hour ago
// or more go too.
func (c *Cache) Trim() error {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	stale := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed by another process meanwhile
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if info.ModTime().Before(stale) {
				os.Remove(p)
			}
			return nil
		}
		entries = append(entries, entry{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return fmt.Errorf("trimming the result cache: %w", err)
	}
	if total <= c.MaxBytes {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].used.Before(entries[j].used) })
	for _, e := range entries {
		if total <= c.MaxBytes {
			break
		}
		if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("trimming the result cache: %w", err)
		}
		total -= e.size
	}
	return nil
}
