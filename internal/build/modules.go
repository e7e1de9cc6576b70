package build

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/module"

	"github.com/dowse-go/dowse/internal/procgroup"
)

// Other modules' packages instrumented on request (-instrument).
//
// Files in the module cache cannot be overlaid (the go command refuses
// overlays there), so a module whose packages are to be instrumented is
// copied into the work directory,
//
//	<work>/mods/<n>/<escaped module path>@<version>/...
//
// and the work go.mod replaces it by the copy. Loading (with -modfile set
// to the work go.mod) then type-checks the copy's files and the build
// overlays their instrumented versions. A module that the user's go.mod
// already replaces by a directory is used in place: its files can be
// overlaid. Standard-library packages cannot be instrumented (the runtime
// package depends on them).

// A Module is another module whose packages are instrumented.
type Module struct {
	Path    string // module path
	Version string // "" for a module replaced by a directory
	Dir     string // where its files are: the module cache, or the directory it is replaced by
	// Copy is the copy in the work directory the work go.mod replaces
	// the module by; "" for a module used in place.
	Copy string
	// Packages are the packages of the module that matched the patterns.
	Packages []string
}

// MatchPattern reports whether the import path matches pattern, as the
// go command matches package patterns: "..." matches any string (including
// the empty one and slashes), and "x/..." also matches "x".
func MatchPattern(pattern, path string) bool {
	if strings.HasSuffix(pattern, "/...") && path == strings.TrimSuffix(pattern, "/...") {
		return true
	}
	parts := strings.Split(pattern, "...")
	if len(parts) == 1 {
		return pattern == path
	}
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	rest := path[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return strings.HasSuffix(rest, last)
}

// matchAny reports whether path matches one of patterns.
func matchAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if MatchPattern(p, path) {
			return true
		}
	}
	return false
}

// FindModules lists the modules outside the main module that provide the
// packages matching instrument among the dependencies (tests included) of
// the packages named by patterns, as the go command run in dir with env
// and buildFlags resolves them. unmatched lists the instrument patterns
// that matched no such package, and why.
func FindModules(ctx context.Context, dir string, env, buildFlags, patterns, instrument []string) (mods []*Module, unmatched []string, err error) {
	const format = `{{.ImportPath}}	{{.Standard}}	{{with .Module}}{{.Path}}	{{.Version}}	{{.Dir}}	{{.Main}}	{{with .Replace}}{{.Path}}	{{.Version}}{{end}}{{end}}`
	args := append([]string{"list", "-e", "-deps", "-test", "-f", format}, buildFlags...)
	args = append(args, patterns...)
	cmd := procgroup.Command(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = withEnv(env, "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := procgroup.Output(cmd)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the dependencies of %s: %w\n%s", strings.Join(patterns, " "), err, stderr.String())
	}
	matched := map[string]string{} // pattern → a reason it matched nothing useful, "" once it matched
	for _, p := range instrument {
		matched[p] = "matches no package imported by " + strings.Join(patterns, " ")
	}
	byPath := map[string]*Module{}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 2 || seen[f[0]] {
			continue
		}
		path := f[0]
		if i := strings.Index(path, " ["); i >= 0 { // a test variant
			path = path[:i]
		}
		seen[f[0]] = true
		var which []string
		for _, p := range instrument {
			if MatchPattern(p, path) {
				which = append(which, p)
			}
		}
		if len(which) == 0 {
			continue
		}
		note := func(why string) {
			for _, p := range which {
				if matched[p] != "" {
					matched[p] = why
				}
			}
		}
		switch {
		case f[1] == "true":
			note("names standard-library packages, which cannot be instrumented")
			continue
		case len(f) < 6 || f[2] == "":
			note("names packages outside any module")
			continue
		case f[5] == "true":
			note("names packages of the main module (-instrument-module instruments those)")
			continue
		}
		for _, p := range which {
			matched[p] = ""
		}
		m := byPath[f[2]]
		if m == nil {
			m = &Module{Path: f[2], Version: f[3], Dir: f[4]}
			if len(f) >= 8 && f[6] != "" && f[7] == "" { // replaced by a directory
				m.Version = ""
			}
			byPath[f[2]] = m
			mods = append(mods, m)
		}
		if !slices.Contains(m.Packages, path) {
			m.Packages = append(m.Packages, path)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("listing the dependencies of %s: %w", strings.Join(patterns, " "), err)
	}
	for _, p := range instrument {
		if why := matched[p]; why != "" {
			unmatched = append(unmatched, fmt.Sprintf("-instrument %s %s", p, why))
		}
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	for _, m := range mods {
		sort.Strings(m.Packages)
		if m.Dir == "" {
			return nil, nil, fmt.Errorf("module %s of %s has no directory (not downloaded?)", m.Path, m.Packages[0])
		}
	}
	return mods, unmatched, nil
}

// CopyModules copies the modules among mods that live in the module
// cache (modCache) into the work directory and sets their Copy; the work
// go.mod, written by WriteModule, replaces each by its copy.
func (w *Work) CopyModules(mods []*Module, modCache string) error {
	for _, m := range mods {
		if m.Version == "" || modCache == "" || !within(m.Dir, modCache) {
			continue // used in place
		}
		esc, err := module.EscapePath(m.Path)
		if err != nil {
			return fmt.Errorf("copying module %s: %w", m.Path, err)
		}
		dst := filepath.Join(w.Dir, "mods", strconv.Itoa(len(w.copies)), filepath.FromSlash(esc)+"@"+m.Version)
		if err := copyModule(m.Dir, dst); err != nil {
			return fmt.Errorf("copying module %s: %w", m.Path, err)
		}
		m.Copy = dst
		w.copies = append(w.copies, m)
	}
	return nil
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// copyModule copies the regular files and directories under src to dst,
// writable (the module cache's are read-only, and the work directory
// must stay removable).
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o777)
		case !d.Type().IsRegular():
			return nil // symbolic links and the like: module zips have none
		}
		return copyFile(p, target, 0o666)
	})
}

// ModuleEnv returns the go.mod file of the module containing dir and the
// module cache directory, as the go command (with GOWORK=off) sees them:
// one "go env GOMOD GOMODCACHE".
func ModuleEnv(ctx context.Context, dir string, env []string) (gomod, modCache string, err error) {
	cmd := procgroup.Command(ctx, "go", "env", "GOMOD", "GOMODCACHE")
	cmd.Dir = dir
	cmd.Env = withEnv(env, "GOWORK=off")
	out, err := procgroup.Output(cmd)
	if err != nil {
		return "", "", fmt.Errorf("go env GOMOD GOMODCACHE: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("go env GOMOD GOMODCACHE: unexpected output %q", out)
	}
	gomod, modCache = strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
	if gomod == "" || gomod == os.DevNull {
		return "", "", fmt.Errorf("%s is not in a module", dir)
	}
	return gomod, modCache, nil
}
