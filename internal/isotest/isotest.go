// Package isotest runs a module's tests through the isolation sandbox
// (dowse test; docs/isolate.md): the generated isolated files (build tag
// dowse_isolated) replay the sandbox values their rows recorded, which
// needs the packages' isolated calls rewritten into sandbox calls, as in
// dowse's workers, but without the concolic instrumentation, so that
// go test's coverage counts the package's own statements.
package isotest

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/internal/isolate"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/procgroup"
)

// Config says how to run.
type Config struct {
	Dir     string // directory to run in ("": the current one)
	Isolate isolate.Config
	// GoTestArgs are go test's flags, passed on (-tags is merged with
	// the isolated files' tag).
	GoTestArgs []string
	Stdout     io.Writer
	Stderr     io.Writer
	KeepWork   bool
}

// valueFlags are go test's flags that take their value as the next
// argument when written without "=".
var valueFlags = map[string]bool{
	"run": true, "skip": true, "bench": true, "benchtime": true, "count": true, "cpu": true,
	"parallel": true, "timeout": true, "coverprofile": true, "covermode": true, "coverpkg": true,
	"tags": true, "o": true, "exec": true, "blockprofile": true, "blockprofilerate": true,
	"cpuprofile": true, "memprofile": true, "memprofilerate": true, "mutexprofile": true,
	"mutexprofilefraction": true, "outputdir": true, "trace": true, "fuzz": true, "fuzztime": true,
	"fuzzminimizetime": true, "shuffle": true, "list": true, "vet": true, "p": true, "json": false,
	"ldflags": true, "gcflags": true, "asmflags": true, "mod": true, "modfile": true, "overlay": true,
	"pkgdir": true, "toolexec": true, "C": true,
}

// Split separates go test's flags from the package patterns in args.
func Split(args []string) (flags, patterns []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			patterns = append(patterns, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && valueFlags[name] && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, patterns
}

// Run runs go test on the packages matching patterns with the sandbox
// overlay and returns go test's exit code.
func Run(ctx context.Context, cfg Config, patterns []string) (int, error) {
	dir := cfg.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	// The tests run in a copy of one module, built with a work go.mod
	// (-modfile), which workspace mode refuses.
	if gowork, err := build.Workspace(ctx, nil, dir); err != nil {
		return 1, err
	} else if gowork != "" {
		return 1, fmt.Errorf("%s: go.work workspaces are not supported by dowse test (it runs go test in a copy of one module): run go test there, or dowse test with GOWORK=off in a module that builds on its own", gowork)
	}
	flags, tags := withoutTags(cfg.GoTestArgs)
	tags = append(tags, emit.IsolatedTag)
	var loadFlags []string
	if len(tags) > 1 {
		loadFlags = []string{"-tags=" + strings.Join(tags[:len(tags)-1], ",")}
	}
	work, err := build.NewWork(cfg.KeepWork)
	if err != nil {
		return 1, err
	}
	defer work.Close()
	// go commands stopped by a signal leave their temporary directories
	// behind: they get GOTMPDIR in the work directory.
	goTmp, err := work.GoTmpDir()
	if err != nil {
		return 1, err
	}
	env := append(os.Environ(), "GOWORK=off", "GOTMPDIR="+goTmp)
	// -unit's packages are rewritten too: their syntax is needed.
	pkgs, _, err := load.Load(load.Config{Context: ctx, Env: env, Dir: dir, BuildFlags: loadFlags, Deps: len(cfg.Isolate.Unit) > 0 && !cfg.Isolate.Off}, patterns...)
	if err != nil {
		return 1, err
	}
	// go test's -cover reads the packages' files from their directories,
	// not through an overlay: the tests run in a copy of the module,
	// whose rewritten files are written in place. The sandbox file is a
	// test file there (zz_dowse_sandbox_test.go: compiled with the
	// package's tests, and not counted by -cover).
	var modRoot, copyRoot string
	files := map[string][]byte{}
	if !cfg.Isolate.Off && len(pkgs) > 0 {
		var roots []*packagesPackage
		for _, p := range pkgs {
			if v := variant(p); v != nil {
				roots = append(roots, v)
			}
		}
		fx, err := isolate.LoadEffects(dir, nil, loadFlags, roots)
		if err != nil {
			return 1, err
		}
		// The packages to rewrite: those tested, whose sandbox file is a
		// test file, and the other members of their units (-unit), whose
		// sandbox file must be compiled when they are imported.
		type member struct {
			v      *packagesPackage
			tested bool
		}
		var members []member
		done := map[string]bool{}
		for _, p := range pkgs {
			if v := variant(p); v != nil && p.Module != nil && !done[v.PkgPath] {
				done[v.PkgPath] = true
				members = append(members, member{v, true})
			}
		}
		for _, p := range pkgs {
			if v := variant(p); v != nil {
				for _, m := range isolate.Members(v, cfg.Isolate) {
					if !done[m.PkgPath] {
						done[m.PkgPath] = true
						members = append(members, member{m, false})
					}
				}
			}
		}
		for _, m := range members {
			v := m.v
			self := v.PkgPath
			u, err := isolate.Analyze(v, fx, cfg.Isolate, func(path string) bool { return path == self || cfg.Isolate.InUnit(path) })
			if err != nil {
				return 1, err
			}
			if u == nil || len(u.Sites) == 0 || v.Module == nil {
				continue
			}
			p := struct{ Module *packagesModule }{v.Module}
			if modRoot == "" {
				modRoot = p.Module.Dir
				if err := work.WriteModule(build.Config{}, p.Module.GoMod, p.Module.Dir); err != nil {
					return 1, err
				}
			}
			for _, f := range v.Syntax {
				name := v.Fset.File(f.Pos()).Name()
				removed := u.Rewrite(f, v.TypesInfo)
				if len(removed) == 0 && !rewritten(u, name) {
					continue
				}
				isolate.BlankUnused(f, v.TypesInfo, removed)
				var b bytes.Buffer
				if err := format.Node(&b, v.Fset, f); err != nil {
					return 1, fmt.Errorf("printing %s: %w", name, err)
				}
				files[name] = b.Bytes()
			}
			if m.tested {
				files[strings.TrimSuffix(u.File, ".go")+"_test.go"] = u.Src
			} else {
				files[u.File] = u.Src
			}
		}
	}
	args := []string{"test", "-tags=" + strings.Join(tags, ",")}
	runDir := dir
	if modRoot != "" {
		copyRoot = filepath.Join(work.Dir, "module")
		if err := copyTree(modRoot, copyRoot); err != nil {
			return 1, fmt.Errorf("copying the module: %w", err)
		}
		for name, src := range files {
			rel, err := filepath.Rel(modRoot, name)
			if err != nil || strings.HasPrefix(rel, "..") {
				return 1, fmt.Errorf("%s is outside the module %s", name, modRoot)
			}
			if err := os.WriteFile(filepath.Join(copyRoot, rel), src, 0o666); err != nil {
				return 1, err
			}
		}
		rel, err := filepath.Rel(modRoot, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = "."
		}
		runDir = filepath.Join(copyRoot, rel)
		vendored, err := build.Vendored(ctx, nil, modRoot, filepath.Join(modRoot, "go.mod"))
		if err != nil {
			return 1, err
		}
		if vendored {
			// The copy's go.mod must match its vendor/modules.txt: the
			// runtime goes into the copy's vendor directory instead.
			if err := work.VendorRuntime(copyRoot); err != nil {
				return 1, err
			}
			args = append(args, "-mod=vendor")
		} else {
			args = append(args, "-modfile", filepath.Join(work.Dir, "go.mod"), "-mod=mod")
		}
	}
	args = append(append(args, flags...), patterns...)
	cmd := procgroup.Command(ctx, "go", args...)
	cmd.Dir = runDir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = cfg.Stdout, cfg.Stderr
	err = procgroup.Run(cmd)
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 1, err
	}
	return 0, nil
}

// copyTree copies the files below from to to, leaving out version
// control directories.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir() && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn"):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(dst, 0o777)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm()|0o200)
	})
}

// rewritten reports whether file name of v has isolated sites.
func rewritten(u *isolate.Unit, name string) bool {
	for _, s := range u.Sites {
		if s.Pos.Filename == name {
			return true
		}
	}
	return false
}

// withoutTags returns args without their -tags flags, and the tags those
// named.
func withoutTags(args []string) (rest, tags []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "tags" {
			rest = append(rest, a)
			continue
		}
		if !hasVal && i+1 < len(args) {
			i++
			val = args[i]
		}
		tags = append(tags, strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' })...)
	}
	return rest, tags
}
