package engine

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/cache"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/isolate"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/procgroup"
)

// The result cache's key of a target hashes everything its exploration
// and its generated rows depend on:
//
//   - dowse itself: the SHA-256 of the running executable (os.Executable),
//     which holds the runtime rt that workers are built with; it is
//     right for go install, go run and test binaries alike, where build
//     information may lack a VCS revision or hide local edits;
//   - Go: runtime.Version() and, from go env in the directory run in, the
//     toolchain building the workers (GOVERSION, GOOS, GOARCH, GOFLAGS,
//     GOEXPERIMENT, CGO_ENABLED);
//   - in a go.work workspace, its go.work and go.work.sum;
//   - the directory run in (summaries are relative to it) and the
//     settings that affect exploration and emission (settings below);
//   - the package: every file of its directory and of its testdata tree
//     (its sources, tests, embedded and test data, and the files dowse
//     generated there, so an edited or deleted generated file is a miss);
//     the go.mod and go.sum of its module; and the files (Go, other,
//     embedded) of every package of a non-standard module that its test
//     binary imports, directly or not, except that a module version
//     from the module cache counts by its path and version, which go.sum
//     pins;
//   - the target: its name, kind and test package, and for a fuzz target
//     seeded from the fuzz cache (-corpus) the names of the entries there
//     (content hashes).
//
// What code under test reads from elsewhere (other files, the
// environment, the network) is not in the key: -cache=false explores
// again.

// settings are the flags that affect exploration and emission: all but
// output (-v, -json, -keep-work), selection (-run, -shard) and -C, whose
// directory is keyed as such.
type settings struct {
	Tags             string
	InstrumentModule bool
	Instrument       []string
	Corpus           bool
	MaxLen, LenCap   int
	FuzzShare        float64
	Auto             bool
	NoMocks          bool
	MockCalls        int
	MaxMemory        int64
	Workers          int
	RunTimeout       time.Duration
	Explore          explore.Config
	Isolate          isolate.Config
}

// keyer computes the keys of one run.
type keyer struct {
	run   []byte                       // what every target of the run shares
	pkgs  map[string]*packages.Package // the dependency graph, by ID
	roots []*packages.Package
	fuzz  func(p *load.Package, t *load.Target) []string // directories seeding a fuzz target from the fuzz cache
}

var (
	exeOnce sync.Once
	exeHash string
	exeErr  error
)

// executableHash is the SHA-256 of the running executable.
func executableHash() (string, error) {
	exeOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			exeErr = fmt.Errorf("finding dowse's executable: %w", err)
			return
		}
		h := sha256.New()
		if err := hashFile(h, exe); err != nil {
			exeErr = fmt.Errorf("hashing dowse's executable: %w", err)
			return
		}
		exeHash = fmt.Sprintf("%x", h.Sum(nil))
	})
	return exeHash, exeErr
}

func hashFile(h hash.Hash, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// newKeyer computes what the keys of a run share and loads the
// dependency graph of the packages the patterns name.
func newKeyer(ctx context.Context, cfg Config, cwd string, loadFlags, patterns []string) (*keyer, error) {
	exe, err := executableHash()
	if err != nil {
		return nil, err
	}
	env := os.Environ()
	cmd := procgroup.Command(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED")
	cmd.Dir, cmd.Env = cwd, env
	goEnv, err := procgroup.Output(cmd)
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	set, err := json.Marshal(settings{
		Tags: cfg.Tags, InstrumentModule: cfg.InstrumentModule, Instrument: cfg.Instrument,
		Corpus: cfg.Corpus, MaxLen: cfg.MaxLen, LenCap: cfg.LenCap, FuzzShare: cfg.FuzzShare, Auto: cfg.Auto, NoMocks: cfg.NoMocks, MockCalls: cfg.MockCalls,
		MaxMemory: cfg.MaxMemory, Workers: cfg.Workers, RunTimeout: cfg.RunTimeout, Explore: cfg.Explore,
		Isolate: cfg.Isolate,
	})
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "dowse %s\ngo %s\n%s\ndir %s\nsettings %s\n", exe, runtime.Version(), goEnv, cwd, set)
	// In a workspace, its go.work and go.work.sum select the versions
	// of the modules, as go.mod and go.sum do otherwise.
	gowork, err := build.Workspace(ctx, env, cwd)
	if err != nil {
		return nil, err
	}
	if gowork != "" {
		for _, f := range []string{gowork, gowork + ".sum"} {
			if err := fileEntry(h, f); err != nil {
				return nil, err
			}
		}
	}

	roots, err := packages.Load(&packages.Config{
		Context:    ctx,
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedEmbedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule,
		Tests:      true,
		Dir:        cwd,
		Env:        env,
		BuildFlags: loadFlags,
	}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("listing dependencies: %w", err)
	}
	k := &keyer{run: h.Sum(nil), pkgs: map[string]*packages.Package{}, roots: roots}
	packages.Visit(roots, nil, func(p *packages.Package) { k.pkgs[p.ID] = p })
	return k, nil
}

// pkg hashes what the exploration of p's targets depends on besides the
// target itself, with p's files as they are now.
func (k *keyer) pkg(p *load.Package) ([]byte, error) {
	h := sha256.New()
	h.Write(k.run)
	fmt.Fprintf(h, "package %s\n", p.Path)
	if p.Module != nil && p.Module.GoMod != "" {
		for _, f := range []string{p.Module.GoMod, filepath.Join(filepath.Dir(p.Module.GoMod), "go.sum")} {
			if err := fileEntry(h, f); err != nil {
				return nil, err
			}
		}
	}
	if err := dirEntries(h, p.Dir); err != nil {
		return nil, err
	}
	// The packages p's test binary is built from.
	seen := map[string]bool{}
	var ids []string
	var visit func(q *packages.Package)
	visit = func(q *packages.Package) {
		if seen[q.ID] {
			return
		}
		seen[q.ID] = true
		ids = append(ids, q.ID)
		for _, imp := range q.Imports {
			visit(imp)
		}
	}
	own := func(q *packages.Package) bool {
		return q.PkgPath == p.Path || q.PkgPath == p.Path+"_test" || q.PkgPath == p.Path+".test"
	}
	for _, r := range k.roots {
		if own(r) {
			visit(r)
		}
	}
	// By import path: a package's ID says whether it is recompiled for
	// p's tests ("q [p.test]"), which changes when p gets its first
	// in-package test file, generated ones included; its files do not.
	byPath := map[string]*packages.Package{}
	var paths []string
	for _, id := range ids {
		q := k.pkgs[id]
		if byPath[q.PkgPath] == nil {
			paths = append(paths, q.PkgPath)
		}
		byPath[q.PkgPath] = q
	}
	sort.Strings(paths)
	for _, path := range paths {
		q := byPath[path]
		m := q.Module
		switch {
		case own(q):
			// p, its tests and its test main: their files are those of
			// p's directory, hashed above as they are now (the list
			// of files loaded at the start of the run would miss the
			// generated files this run writes).
			continue
		case m == nil:
			continue // the standard library: Go's version says it all
		case !m.Main && (m.Replace == nil || m.Replace.Version != ""):
			v := m
			if m.Replace != nil {
				v = m.Replace
			}
			fmt.Fprintf(h, "dep %s module %s@%s\n", q.PkgPath, v.Path, v.Version)
			continue
		}
		fmt.Fprintf(h, "dep %s\n", q.PkgPath)
		var files []string
		files = append(files, q.GoFiles...)
		files = append(files, q.OtherFiles...)
		files = append(files, q.EmbedFiles...)
		sort.Strings(files)
		for i, f := range files {
			if i > 0 && f == files[i-1] {
				continue
			}
			if err := fileEntry(h, f); err != nil {
				return nil, err
			}
		}
	}
	return h.Sum(nil), nil
}

// target is the key of target t of p, whose package hash is pkg.
func (k *keyer) target(pkg []byte, p *load.Package, t *load.Target) cache.Key {
	h := sha256.New()
	h.Write(pkg)
	fmt.Fprintf(h, "target %s %s external=%v\n", t.Kind, t.Name, t.External)
	if t.Kind == load.KindFuzz && k.fuzz != nil {
		for _, d := range k.fuzz(p, t) {
			entries, _ := os.ReadDir(d) // none: no entries
			fmt.Fprintf(h, "corpus %s\n", d)
			for _, e := range entries {
				fmt.Fprintf(h, "\t%s\n", e.Name())
			}
		}
	}
	var key cache.Key
	h.Sum(key[:0])
	return key
}

// fileEntry hashes a file's name and content; a missing file counts as
// such.
func fileEntry(h hash.Hash, name string) error {
	fmt.Fprintf(h, "file %s\n", name)
	if err := hashFile(h, name); err != nil {
		if os.IsNotExist(err) {
			fmt.Fprintf(h, "missing\n")
			return nil
		}
		return fmt.Errorf("hashing %s: %w", name, err)
	}
	fmt.Fprintf(h, "\n")
	return nil
}

// dirEntries hashes the regular files of dir and of its testdata tree:
// what a worker's copy of the package directory holds.
func dirEntries(h hash.Hash, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("hashing %s: %w", dir, err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case regular(p, e):
			if err := fileEntry(h, p); err != nil {
				return err
			}
		case e.IsDir() && e.Name() == "testdata":
			err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if regular(q, d) {
					return fileEntry(h, q)
				}
				return nil
			})
			if err != nil {
				return fmt.Errorf("hashing %s: %w", p, err)
			}
		}
	}
	return nil
}

// regular reports whether the entry is a regular file or a symbolic
// link to one.
func regular(p string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink != 0 {
		info, err := os.Stat(p)
		return err == nil && info.Mode().IsRegular()
	}
	return e.Type().IsRegular()
}
