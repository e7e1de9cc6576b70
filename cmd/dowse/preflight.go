package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// preflight checks what every command needs before it runs the go
// command, so that a mistake gets a message that names it instead of
// the go command's (or, outside a module, no message and status 0): the
// directory of -C exists, it is inside a module, and the patterns that
// name directories name existing ones.
func preflight(dir string, patterns []string) error {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("finding the current directory: %w", err)
		}
		dir = wd
	} else {
		info, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("-C %s: the directory does not exist", dir)
		case err != nil:
			return fmt.Errorf("-C %s: %w", dir, err)
		case !info.IsDir():
			return fmt.Errorf("-C %s: not a directory", dir)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("finding %s: %w", dir, err)
	}
	if !inModule(abs) {
		return fmt.Errorf("not in a Go module (no go.mod found in %s or above); run dowse inside a module", abs)
	}
	for _, p := range patterns {
		d, ok := patternDir(p)
		if !ok {
			continue
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(abs, d)
		}
		info, err := os.Stat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("pattern %s matches no packages: %s does not exist", p, d)
		case err != nil:
			return fmt.Errorf("pattern %s: %w", p, err)
		case !info.IsDir():
			return fmt.Errorf("pattern %s matches no packages: %s is not a directory", p, d)
		}
	}
	return nil
}

// inModule reports whether dir or a directory above it has a go.mod
// file, as the go command looks for the main module, or a go.work file
// (GOWORK not off), which loading answers with its own message.
func inModule(dir string) bool {
	gowork := os.Getenv("GOWORK")
	if gowork != "" && gowork != "off" {
		return true
	}
	for {
		if info, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !info.IsDir() {
			return true
		}
		if gowork != "off" {
			if info, err := os.Stat(filepath.Join(dir, "go.work")); err == nil && !info.IsDir() {
				return true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// patternDir returns the directory a package pattern names when it is a
// file system path (".", "./x", "../x/...", "/abs/x"), as the go command
// tells them from import paths; ok is false for import path patterns.
func patternDir(p string) (dir string, ok bool) {
	if p != "." && p != ".." && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") && !filepath.IsAbs(p) {
		return "", false
	}
	if i := strings.Index(p, "..."); i >= 0 {
		// The wildcard may stand for part of a name: the directory is
		// the part before the last slash ahead of it.
		p = p[:strings.LastIndex(p[:i], "/")+1]
	}
	return filepath.FromSlash(p), true
}
