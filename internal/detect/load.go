package detect

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// LoadConfig says how to load packages.
type LoadConfig struct {
	// Dir is the directory in which to run the go command ("" = current).
	Dir string
	// Tags are extra build tags (comma-separated, as for go build -tags).
	Tags string
	// Env is the environment of the go command (nil = os.Environ()).
	Env []string
	// Options decides which packages need SSA bodies.
	Options Options
}

// A Program is a set of loaded packages with their SSA form.
type Program struct {
	Fset *token.FileSet
	// Errors lists the packages that could not be loaded or type-checked;
	// they are skipped.
	Errors []*PackageError
	// LoadTime and SSATime measure the two preparation steps.
	LoadTime, SSATime time.Duration

	prog    *ssa.Program
	units   []*unit // packages with test files
	helpers []*unit // other packages whose functions join the scope
	root    string
}

// unit is one package whose syntax is analysed.
type unit struct {
	path    string
	pkg     *packages.Package
	ssa     *ssa.Package
	modPath string
	modDir  string
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax |
	packages.NeedModule | packages.NeedTypesSizes

// Load loads the packages matched by patterns, with their tests, and
// builds SSA for the packages that hold test code (and, depending on the
// options, their helpers and production code). Packages with errors are
// recorded in Program.Errors and skipped; Load fails only when the go
// command itself fails.
func Load(cfg LoadConfig, patterns ...string) (*Program, error) {
	start := time.Now()
	pcfg := &packages.Config{
		Mode:  loadMode,
		Dir:   cfg.Dir,
		Env:   cfg.Env,
		Tests: true,
	}
	if cfg.Tags != "" {
		pcfg.BuildFlags = []string{"-tags=" + cfg.Tags}
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	p := &Program{LoadTime: time.Since(start)}
	if len(pkgs) > 0 {
		p.Fset = pkgs[0].Fset
	} else {
		p.Fset = token.NewFileSet()
	}
	p.root = cfg.Dir
	if p.root == "" {
		p.root, _ = os.Getwd()
	}
	p.root, _ = filepath.Abs(p.root)

	start = time.Now()
	mode := ssa.BuilderMode(0)
	if cfg.Options.Interprocedural {
		mode |= ssa.InstantiateGenerics
	}
	p.prog = ssa.NewProgram(p.Fset, mode)
	var build []*unit
	reported := map[string]string{} // error line → the package that reported it first
	for _, pkg := range pkgs {
		if strings.HasSuffix(pkg.ID, ".test") && pkg.Name == "main" {
			continue // generated test main
		}
		if errs := packageErrors(pkg, reported); len(errs) > 0 {
			p.Errors = append(p.Errors, &PackageError{Package: pkg.ID, Errors: errs})
			continue
		}
		u := &unit{path: pkg.PkgPath, pkg: pkg}
		if pkg.Module != nil {
			u.modPath, u.modDir = pkg.Module.Path, pkg.Module.Dir
		}
		switch {
		case hasTestFiles(pkg):
			p.units = append(p.units, u)
		case cfg.Options.IntoProduction,
			cfg.Options.Interprocedural && importsTesting(pkg.Types):
			p.helpers = append(p.helpers, u)
		default:
			continue
		}
		build = append(build, u)
	}
	// Packages with syntax first, then every other package they import,
	// from type information only.
	created := map[*types.Package]bool{}
	for _, u := range build {
		u.ssa = p.prog.CreatePackage(u.pkg.Types, u.pkg.Syntax, u.pkg.TypesInfo, true)
		created[u.pkg.Types] = true
	}
	var visit func(tp *types.Package)
	visit = func(tp *types.Package) {
		for _, imp := range tp.Imports() {
			if !created[imp] {
				created[imp] = true
				p.prog.CreatePackage(imp, nil, nil, true)
				visit(imp)
			}
		}
	}
	for _, u := range build {
		visit(u.pkg.Types)
	}
	var wg sync.WaitGroup
	for _, u := range build {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.ssa.Build()
		}()
	}
	wg.Wait()
	p.SSATime = time.Since(start)
	return p, nil
}

// Analyzed reports how many packages with test code were analysed.
func (p *Program) Analyzed() int { return len(p.units) }

// packageErrors returns the errors of pkg, each once: the go command's
// compile output (a "# pkg" line, then positions relative to the
// package's directory) repeats the type checker's errors, and the test
// variant of a package repeats the package's. reported maps each error
// line, by file base name and message, to the package that reported it
// first; a package whose errors were all reported by another says so.
func packageErrors(pkg *packages.Package, reported map[string]string) []string {
	var errs []string
	var earlier string
	for _, e := range pkg.Errors {
		for _, line := range strings.Split(e.Error(), "\n") {
			line = strings.TrimSpace(line)
			line = strings.TrimPrefix(line, "-: ")
			if line == "" || strings.HasPrefix(line, "# ") {
				continue
			}
			key := errorKey(line)
			if by, ok := reported[key]; ok {
				if by != pkg.ID && earlier == "" {
					earlier = by
				}
				continue
			}
			reported[key] = pkg.ID
			errs = append(errs, line)
		}
	}
	if len(errs) == 0 && earlier != "" {
		errs = append(errs, "the same errors as "+earlier)
	}
	if len(errs) == 0 && pkg.IllTyped {
		errs = append(errs, "package or one of its dependencies has errors")
	}
	if len(errs) == 0 && (pkg.Types == nil || pkg.TypesInfo == nil) {
		errs = append(errs, "no type information")
	}
	return errs
}

// errorKey is an error line with the directory of its position left
// out, so that the go command's relative positions and the type
// checker's absolute ones compare equal.
func errorKey(line string) string {
	pos, msg, ok := strings.Cut(line, ".go:")
	if !ok {
		return line
	}
	return filepath.Base(pos) + ".go:" + msg
}

func hasTestFiles(pkg *packages.Package) bool {
	for _, f := range pkg.CompiledGoFiles {
		if isTestFile(f) {
			return true
		}
	}
	return false
}

func isTestFile(name string) bool { return strings.HasSuffix(name, "_test.go") }

func importsTesting(tp *types.Package) bool {
	if tp == nil {
		return false
	}
	for _, imp := range tp.Imports() {
		if imp.Path() == "testing" {
			return true
		}
	}
	return false
}
