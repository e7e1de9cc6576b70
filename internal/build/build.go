// Package build turns a loaded package into an instrumented worker binary
// without touching the user's tree.
//
// Everything dowse writes goes to a work directory made with os.MkdirTemp:
//
//	<work>/rtmod/go.mod          module github.com/dowse-go/dowse (the runtime)
//	<work>/rtmod/rt/*.go         the runtime package, from rt.Source
//	<work>/go.mod, go.sum        the user's go.mod and go.sum plus a require
//	                             and a replace of the runtime module
//	<work>/overlay/<n>/<file>    instrumented files and worker harnesses
//	<work>/overlay.json          the go command's -overlay file
//	<work>/<pkg>.test            the worker binary
//	<work>/run/<n>/<dir>         the copy of the package directory workers run in
//
// The binary is built by
//
//	go test -c -vet=off -o <work>/<pkg>.test -overlay <work>/overlay.json \
//		-modfile <work>/go.mod -mod=mod <pkg>
//
// run in the user's module with GOWORK=off (the go command refuses
// -modfile in workspace mode); GOFLAGS and the rest of the environment pass
// through. In a go.work workspace the work directory has a copy of the
// go.work instead, which also uses the runtime module, and builds run
// with GOWORK set to it, without -modfile (workspace.go). A module the go command builds from its vendor directory
// (Vendored) is built with -mod=vendor and its own go.mod instead, the
// runtime package overlaid into the vendor directory.
package build

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/instrument"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/procgroup"
	"github.com/dowse-go/dowse/rt"
)

// RuntimeModule is the module path of the runtime package.
const RuntimeModule = "github.com/dowse-go/dowse"

// RuntimeImport is the import path of the runtime package.
const RuntimeImport = RuntimeModule + "/rt"

// runtimeGoVersion is the go line of the runtime's module in the work
// directory. The go command raises the go line of the work go.mod to
// that of every module it requires, and the go line sets the language
// version of the user's code: 1.22 gave every loop of a module declaring
// go 1.21 or older per-iteration variables, so closures created in a
// loop saw other values than under go test. It stays at 1.21, the last
// version before that change, so the runtime must not use newer language
// features (range over an integer or a function).
const runtimeGoVersion = "1.21"

// Site is a branch site of instrumented code.
type Site struct {
	ID   uint32
	Pos  token.Position
	Kind string
}

// Branch reports whether runs record outcomes of the site (an explicit or
// implicit branch), so that it counts for coverage; other sites only name
// where a concretization happened.
func (s Site) Branch() bool { return instrument.IsBranchKind(s.Kind) }

// Instrumenter rewrites the code of one worker binary. It receives every
// package variant that goes into the binary instrumented, and returns the
// rewritten source of each file it changed, keyed by the file's absolute
// path, and the branch sites it numbered (IDs unique within the binary).
type Instrumenter interface {
	Instrument(pkgs []*packages.Package) (files map[string][]byte, sites []Site, err error)
}

// NoInstrument leaves the code as it is: workers then report no branches
// (every target has one path) and fuzz targets cannot be served, since
// f.Fuzz is not redirected to the runtime. It exists to exercise the
// plumbing.
type NoInstrument struct{}

// Instrument implements Instrumenter.
func (NoInstrument) Instrument([]*packages.Package) (map[string][]byte, []Site, error) {
	return nil, nil, nil
}

// Config says how to build.
type Config struct {
	Env          []string     // environment of the go command; nil means os.Environ(). GOWORK is set: the work go.work in a workspace, else off.
	BuildFlags   []string     // extra flags for go test -c, e.g. -tags
	Instrumenter Instrumenter // nil means NoInstrument
	// InstrumentModule instruments, besides the package under test, the
	// other packages of its module that the test binary imports.
	InstrumentModule bool
	// Instrument holds package patterns of other modules: the packages
	// the test binary imports that match one are instrumented too. Their
	// modules must have been copied (Work.CopyModules) or be replaced by
	// a directory, and loaded with their syntax.
	Instrument []string
	// Unit holds the patterns of the main module's packages that belong
	// to the unit under test with the package (-unit): instrumented in
	// its binary, so that their isolated calls are rewritten.
	Unit []string
	// Runtime holds the runtime package's source; nil means rt.Source.
	Runtime fs.FS
}

// Work is a work directory.
type Work struct {
	Dir  string
	keep bool

	modDone bool   // go.mod, go.sum and the runtime module are written
	modDir  string // the module root the go.mod was copied from
	// gowork is the work go.work when the user's module is in a
	// workspace: builds use it instead of the work go.mod.
	gowork string
	// vendor is set once the module mode is known (Vendored): true if
	// the module builds from its vendor directory.
	vendor *bool
	n      int       // overlay directories used
	copies []*Module // other modules copied to be instrumented (CopyModules)
}

// NewWork creates a work directory. If keep is false, Close removes it.
func NewWork(keep bool) (*Work, error) {
	dir, err := procgroup.MkdirTemp("", "dowse-work-")
	if err != nil {
		return nil, fmt.Errorf("creating work directory: %w", err)
	}
	if keep {
		procgroup.Forget(dir)
	}
	return &Work{Dir: dir, keep: keep}, nil
}

// GoTmpDir returns the directory, inside the work directory, that the go
// commands dowse runs get as GOTMPDIR: a go command stopped by a signal
// leaves its go-build directory behind, and there it goes with the work
// directory.
func (w *Work) GoTmpDir() (string, error) {
	dir := filepath.Join(w.Dir, "gotmp")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("creating GOTMPDIR: %w", err)
	}
	return dir, nil
}

// goEnv is the environment of the go commands building in w: env (nil:
// os.Environ()) with GOWORK (the work go.work in a workspace, else off)
// and GOTMPDIR in w.
func (w *Work) goEnv(env []string) ([]string, error) {
	tmp, err := w.GoTmpDir()
	if err != nil {
		return nil, err
	}
	gowork := "off"
	if w.gowork != "" {
		gowork = w.gowork
	}
	return withEnv(env, "GOWORK="+gowork, "GOTMPDIR="+tmp), nil
}

// InWorkspace reports whether w builds in a go.work workspace (known
// once WriteModule ran).
func (w *Work) InWorkspace() bool { return w.gowork != "" }

// Kept reports whether Close leaves the work directory in place.
func (w *Work) Kept() bool { return w.keep }

// Close removes the work directory unless it is to be kept.
func (w *Work) Close() error {
	if w.keep {
		return nil
	}
	if err := procgroup.RemoveAll(w.Dir); err != nil {
		return fmt.Errorf("removing work directory: %w", err)
	}
	return nil
}

// Binary is a built worker binary for one package.
type Binary struct {
	Path    string        // the test binary
	Package *load.Package // the package it tests
	Sites   []Site        // branch sites of the instrumented code, by ID
	// RunDir is the directory workers run in: a copy of the package
	// directory (see Work.runDir), or the package directory itself when
	// it was too large to copy (RunDirWarning says so).
	RunDir        string
	RunDirWarning string
	// Harness maps each PUT the binary serves to the name of the test
	// function that serves it.
	Harness map[string]string
}

// Command says how to start a worker: the binary, its arguments, the
// environment variables to add, and the working directory.
type Command struct {
	Path string
	Args []string
	Env  []string
	Dir  string
}

// Worker returns the command that starts a worker serving target t. ok is
// false if the binary does not serve t.
func (b *Binary) Worker(t *load.Target) (cmd Command, ok bool) {
	cmd = Command{Path: b.Path, Dir: b.RunDir}
	if cmd.Dir == "" {
		cmd.Dir = b.Package.Dir
	}
	env := []string{rt.EnvWorker + "=1"}
	switch t.Kind {
	case load.KindPUT, load.KindFunc, load.KindMethod:
		test, ok := b.Harness[t.Name]
		if !ok {
			return Command{}, false
		}
		cmd.Args = []string{"-test.run=^" + test + "$"}
		env = append(env, rt.EnvTargets+"="+t.Name)
	case load.KindFuzz:
		cmd.Args = []string{"-test.run=^" + t.Name + "$"}
		env = append(env, rt.EnvFuzz+"="+t.Name)
	}
	cmd.Env = env
	return cmd, true
}

// Error reports that the instrumented code did not build, which is a bug
// in dowse. The work directory, which holds the instrumented files, is
// removed like any other unless it is kept (-keep-work).
type Error struct {
	Package string
	WorkDir string // the work directory, if it is kept; "" if it is removed
	Output  string // the go command's output
	Err     error
}

func (e *Error) Error() string {
	where := "rerun with -keep-work to keep the instrumented files"
	if e.WorkDir != "" {
		where = "work directory kept at " + e.WorkDir
	}
	return fmt.Sprintf("building the instrumented package %s failed (a bug in dowse; %s): %v\n%s",
		e.Package, where, e.Err, strings.TrimRight(e.Output, "\n"))
}

func (e *Error) Unwrap() error { return e.Err }

// Build instruments p and builds its worker binary serving targets (the
// supported targets of p; others are ignored).
func (w *Work) Build(ctx context.Context, cfg Config, p *load.Package, targets []*load.Target) (*Binary, error) {
	if p.Module == nil || p.Module.GoMod == "" {
		return nil, fmt.Errorf("%s: not in a module", p.Path)
	}
	if err := w.WriteModule(cfg, p.Module.GoMod, p.Module.Dir); err != nil {
		return nil, err
	}
	ins := cfg.Instrumenter
	if ins == nil {
		ins = NoInstrument{}
	}
	variants := instrumented(p, cfg.InstrumentModule, cfg.Instrument, cfg.Unit...)
	files, sites, err := ins.Instrument(variants)
	if err != nil {
		return nil, fmt.Errorf("instrumenting %s: %w", p.Path, err)
	}
	sort.Slice(sites, func(i, j int) bool { return sites[i].ID < sites[j].ID })

	bin := &Binary{Package: p, Sites: sites, Harness: map[string]string{}}
	bin.RunDir, err = w.runDir(p.Dir)
	if errors.Is(err, errRunDirTooLarge) {
		bin.RunDir = p.Dir
		bin.RunDirWarning = fmt.Sprintf("%s is larger than %d MiB: workers run in the package directory itself, where files the code under test writes land", p.Dir, maxRunDirBytes>>20)
	} else if err != nil {
		return nil, err
	}
	overlay := map[string]string{}
	dir := filepath.Join(w.Dir, "overlay", strconv.Itoa(w.n))
	w.n++
	write := func(orig string, src []byte) error {
		// Keep the file's base name: compiler messages then still say
		// which file they are about.
		sub := filepath.Join(dir, strconv.Itoa(len(overlay)))
		if err := os.MkdirAll(sub, 0o777); err != nil {
			return fmt.Errorf("writing overlay: %w", err)
		}
		dst := filepath.Join(sub, filepath.Base(orig))
		if err := os.WriteFile(dst, src, 0o666); err != nil {
			return fmt.Errorf("writing overlay: %w", err)
		}
		overlay[orig] = dst
		return nil
	}
	origs := make([]string, 0, len(files))
	for f := range files {
		origs = append(origs, f)
	}
	sort.Strings(origs)
	for _, f := range origs {
		if err := write(f, files[f]); err != nil {
			return nil, err
		}
	}
	harnesses, err := harnessFiles(p, targets, overlay)
	if err != nil {
		return nil, err
	}
	for _, h := range harnesses {
		if err := write(h.path, h.src); err != nil {
			return nil, err
		}
		if h.mocks {
			// The generated test files of an earlier run declare the mock
			// types the harness declares: the worker has no use for them.
			stubs := generatedStubs(p)
			for _, name := range slices.Sorted(maps.Keys(stubs)) {
				if err := write(name, stubs[name]); err != nil {
					return nil, err
				}
			}
		}
		for _, name := range h.puts {
			bin.Harness[name] = h.test
		}
	}

	if w.vendor == nil && w.gowork != "" {
		// The work go.work has no vendor directory beside it: modules
		// come from the module cache.
		v := false
		w.vendor = &v
	}
	if w.vendor == nil {
		v, err := Vendored(ctx, cfg.Env, p.Module.Dir, p.Module.GoMod)
		if err != nil {
			return nil, err
		}
		w.vendor = &v
	}
	if *w.vendor {
		if len(w.copies) > 0 {
			return nil, fmt.Errorf("%s: -instrument needs modules outside the vendor directory: run with GOFLAGS=-mod=mod", p.Path)
		}
		if err := w.vendorRuntime(p.Module.Dir, overlay); err != nil {
			return nil, err
		}
	}

	ovPath := filepath.Join(dir, "overlay.json")
	ov, err := json.MarshalIndent(struct{ Replace map[string]string }{overlay}, "", "\t")
	if err != nil {
		return nil, fmt.Errorf("writing overlay: %w", err)
	}
	if err := os.WriteFile(ovPath, ov, 0o666); err != nil {
		return nil, fmt.Errorf("writing overlay: %w", err)
	}

	bin.Path = filepath.Join(w.Dir, binaryName(p.Path))
	// -vet=off: the instrumented code is dowse's, not the user's, and vet
	// cannot run on the runtime overlaid into a vendor directory.
	args := []string{"test", "-c", "-vet=off", "-o", bin.Path, "-overlay", ovPath}
	switch {
	case *w.vendor:
		args = append(args, "-mod=vendor")
	case w.gowork != "":
		// The work go.work (goEnv) stands for the work go.mod.
	default:
		args = append(args, "-modfile", filepath.Join(w.Dir, "go.mod"), "-mod=mod")
	}
	args = append(args, cfg.BuildFlags...)
	args = append(args, p.Path)
	cmd := procgroup.Command(ctx, "go", args...)
	cmd.Dir = p.Module.Dir
	if cmd.Env, err = w.goEnv(cfg.Env); err != nil {
		return nil, err
	}
	out, err := procgroup.CombinedOutput(cmd)
	if err != nil {
		if ctx.Err() != nil {
			// Stopped, not broken.
			return nil, fmt.Errorf("building %s: %w", p.Path, context.Cause(ctx))
		}
		e := &Error{Package: p.Path, Output: string(out), Err: err}
		if w.keep {
			e.WorkDir = w.Dir
		}
		return nil, e
	}
	return bin, nil
}

// instrumented returns the package variants that go into p's binary
// instrumented: the package with its in-package tests (or without, if it
// has none), the external test package, with all set the module's other
// packages imported by them, and the packages of other modules they
// import (directly or not) that match one of others.
func instrumented(p *load.Package, all bool, others []string, unit ...string) []*packages.Package {
	var out []*packages.Package
	if p.Test != nil {
		out = append(out, p.Test)
	} else if p.Plain != nil {
		out = append(out, p.Plain)
	}
	if p.XTest != nil {
		out = append(out, p.XTest)
	}
	if !all && len(others) == 0 && len(unit) == 0 {
		return out
	}
	seen := map[string]bool{p.Path: true}
	var deps []*packages.Package
	var visit func(q *packages.Package)
	visit = func(q *packages.Package) {
		for _, imp := range q.Imports {
			if seen[imp.PkgPath] {
				continue
			}
			seen[imp.PkgPath] = true
			switch {
			case (imp.Module == nil || !imp.Module.Main) && len(others) == 0:
				continue // only the main module's packages are wanted
			case imp.Module == nil: // the standard library
			case imp.Module.Main:
				if all || matchAny(unit, imp.PkgPath) {
					deps = append(deps, imp)
				}
			case matchAny(others, imp.PkgPath):
				deps = append(deps, imp)
			}
			visit(imp)
		}
	}
	for _, v := range out {
		visit(v)
	}
	sort.Slice(deps, func(i, j int) bool { return deps[i].PkgPath < deps[j].PkgPath })
	return append(out, deps...)
}

// binaryName turns an import path into a file name for its test binary.
func binaryName(importPath string) string {
	r := strings.NewReplacer("/", "_", ".", "_", "-", "_", "~", "_")
	return r.Replace(importPath) + ".test"
}

// withEnv returns env (os.Environ() if nil) with extra appended; later
// entries win.
func withEnv(env []string, extra ...string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(env[:len(env):len(env)], extra...)
}

// GoMod returns the path of the work go.mod (WriteModule writes it),
// the go command's -modfile for loading and building.
func (w *Work) GoMod() string { return filepath.Join(w.Dir, "go.mod") }

// WriteModule writes the runtime module and the work go.mod and go.sum,
// from the user's module's goMod (its root is dir), once per work
// directory: the go.mod requires and replaces the runtime module, and
// replaces the copied modules (CopyModules) by their copies. When the go
// command run in dir (with cfg.Env) uses a go.work file, it writes the
// work go.work instead (writeWorkspace), which serves every module of
// the workspace.
func (w *Work) WriteModule(cfg Config, goMod, dir string) error {
	if w.modDone {
		if w.modDir != dir && w.gowork == "" {
			return fmt.Errorf("packages of two modules (%s, %s) in one run", w.modDir, dir)
		}
		return nil
	}
	src := cfg.Runtime
	if src == nil {
		src = rt.Source
	}
	rtmod := filepath.Join(w.Dir, "rtmod")
	if err := writeRuntime(src, rtmod); err != nil {
		return err
	}
	gowork, err := Workspace(context.Background(), cfg.Env, dir)
	if err != nil {
		return err
	}
	if gowork != "" {
		if err := w.writeWorkspace(gowork, rtmod); err != nil {
			return err
		}
		w.modDone, w.modDir = true, dir
		return nil
	}
	gomod, err := os.ReadFile(goMod)
	if err != nil {
		return fmt.Errorf("reading go.mod: %w", err)
	}
	out, err := RewriteGoMod(goMod, gomod, rtmod, w.copies...)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w.Dir, "go.mod"), out, 0o666); err != nil {
		return fmt.Errorf("writing go.mod: %w", err)
	}
	sum, err := os.ReadFile(strings.TrimSuffix(goMod, ".mod") + ".sum")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading go.sum: %w", err)
	}
	if err := os.WriteFile(filepath.Join(w.Dir, "go.sum"), sum, 0o666); err != nil {
		return fmt.Errorf("writing go.sum: %w", err)
	}
	w.modDone, w.modDir = true, dir
	return nil
}

// absoluteReplaces makes the replacements of f by relative directories
// absolute, relative to dir, and reports whether there were any.
func absoluteReplaces(f *modfile.File, dir string) (bool, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false, err
	}
	var rel []*modfile.Replace
	for _, r := range f.Replace {
		if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			rel = append(rel, r)
		}
	}
	for _, r := range rel {
		to := filepath.Join(abs, filepath.FromSlash(r.New.Path))
		if err := f.AddReplace(r.Old.Path, r.Old.Version, to, ""); err != nil {
			return false, err
		}
	}
	return len(rel) > 0, nil
}

// writeRuntime writes the runtime package from src (its .go files except
// source.go and tests) into dir/rt, with dir/go.mod declaring the runtime
// module.
func writeRuntime(src fs.FS, dir string) error {
	pkgDir := filepath.Join(dir, "rt")
	if err := os.MkdirAll(pkgDir, 0o777); err != nil {
		return fmt.Errorf("writing runtime: %w", err)
	}
	gomod := fmt.Sprintf("module %s\n\ngo %s\n", RuntimeModule, runtimeGoVersion)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o666); err != nil {
		return fmt.Errorf("writing runtime: %w", err)
	}
	entries, err := fs.ReadDir(src, ".")
	if err != nil {
		return fmt.Errorf("reading runtime source: %w", err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".go" || name == "source.go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := fs.ReadFile(src, name)
		if err != nil {
			return fmt.Errorf("reading runtime source: %w", err)
		}
		if err := os.WriteFile(filepath.Join(pkgDir, name), data, 0o666); err != nil {
			return fmt.Errorf("writing runtime: %w", err)
		}
		n++
	}
	if n == 0 {
		return errors.New("the runtime source has no Go files")
	}
	return nil
}

// RewriteGoMod returns the go.mod data (read from file) with a require of
// the runtime module and a replace pointing it at rtDir, and a replace of
// each of copies (any version) by its Copy. Replacements by relative
// directories are made absolute (relative to file's directory): the go
// command resolves them from the module root, and dowse test runs in a
// copy of the module. If the module is the runtime module itself, data is
// returned unchanged apart from those.
func RewriteGoMod(file string, data []byte, rtDir string, copies ...*Module) ([]byte, error) {
	f, err := modfile.Parse(file, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", file, err)
	}
	absolute, err := absoluteReplaces(f, filepath.Dir(file))
	if err != nil {
		return nil, fmt.Errorf("rewriting %s: %w", file, err)
	}
	if len(copies) > 0 {
		for _, m := range copies {
			var old []module.Version
			for _, r := range f.Replace {
				if r.Old.Path == m.Path {
					old = append(old, r.Old)
				}
			}
			for _, o := range old {
				if err := f.DropReplace(o.Path, o.Version); err != nil {
					return nil, fmt.Errorf("rewriting %s: %w", file, err)
				}
			}
			if err := f.AddReplace(m.Path, "", m.Copy, ""); err != nil {
				return nil, fmt.Errorf("rewriting %s: %w", file, err)
			}
		}
	}
	if f.Module != nil && f.Module.Mod.Path == RuntimeModule {
		if len(copies) == 0 && !absolute {
			return data, nil
		}
		f.Cleanup()
		out, err := f.Format()
		if err != nil {
			return nil, fmt.Errorf("rewriting %s: %w", file, err)
		}
		return out, nil
	}
	for _, r := range f.Replace {
		if r.Old.Path == RuntimeModule {
			if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
				return nil, fmt.Errorf("rewriting %s: %w", file, err)
			}
		}
	}
	if err := f.AddRequire(RuntimeModule, "v0.0.0"); err != nil {
		return nil, fmt.Errorf("rewriting %s: %w", file, err)
	}
	if err := f.AddReplace(RuntimeModule, "", rtDir, ""); err != nil {
		return nil, fmt.Errorf("rewriting %s: %w", file, err)
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return nil, fmt.Errorf("rewriting %s: %w", file, err)
	}
	return bytes.TrimLeft(out, "\n"), nil
}
