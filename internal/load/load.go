// Package load loads the user's packages and finds the targets that dowse
// explores: parameterized unit tests (PutXxx) and Go fuzz targets (FuzzXxx).
//
// Packages are loaded with golang.org/x/tools/go/packages, tests included,
// from the user's directory, as the go command resolves them there: in a
// go.work workspace (unless GOWORK=off) in workspace mode, so that
// `./...` at its root names the packages of its modules and a module's
// imports of the others resolve as go test resolves them. Package build
// builds the same way (a copy of the go.work that also uses the runtime
// module), so the type-checked code is the code that is built.
package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// Mode is the packages.LoadMode dowse needs for the packages it
// explores. Their dependencies are loaded from export data unless
// Config.Deps asks for their syntax too.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// Config says how to load packages.
type Config struct {
	// Context stops the go command loading (nil: never stopped).
	Context    context.Context
	Dir        string   // directory to load from (the go command's working directory); "" means the current one
	Env        []string // environment of the go command; nil means os.Environ()
	BuildFlags []string // extra build flags, e.g. -tags
	// Deps loads the dependencies with syntax and type information too
	// (packages.NeedDeps), as instrumenting the module's other packages
	// needs; it is much slower.
	Deps bool
	// Auto adds automatic targets (every exported function and method)
	// to packages that have PUTs or fuzz targets; a package without any
	// gets them anyway.
	Auto bool
	// NoMocks offers interface inputs only nil and the package's own
	// types, no generated mock types (-mocks=false).
	NoMocks bool
	// MockCalls is the number of scripted calls of each mock method (the
	// later calls return the last results again); 0 means
	// DefaultMockCalls.
	MockCalls int
}

// Package is one package named by the patterns, with its test variants.
type Package struct {
	Path    string            // import path
	Name    string            // package name
	Dir     string            // directory of the package's files
	Module  *packages.Module  // the module containing it (the main module)
	Plain   *packages.Package // the package without its tests
	Test    *packages.Package // the package compiled with its _test.go files (nil if it has none)
	XTest   *packages.Package // the external test package path_test (nil if none)
	Fset    *token.FileSet    // positions of all the packages' syntax
	Targets []*Target         // targets in source order: in-package first, then external
}

// Variant returns the package variant a target lives in.
func (p *Package) Variant(t *Target) *packages.Package {
	if t.External {
		return p.XTest
	}
	return p.Test
}

// Kind says what sort of target a Target is.
type Kind int

const (
	KindPUT    Kind = iota // func PutXxx(t *testing.T, params...)
	KindFuzz               // func FuzzXxx(f *testing.F) { f.Fuzz(func(t *testing.T, params...) {...}) }
	KindFunc               // an exported function, explored automatically
	KindMethod             // an exported method of an exported type, explored automatically
)

func (k Kind) String() string {
	switch k {
	case KindFuzz:
		return "fuzz"
	case KindFunc:
		return "func"
	case KindMethod:
		return "method"
	}
	return "put"
}

// Auto reports whether k is an automatic target (a function or method
// called directly, its results reported).
func (k Kind) Auto() bool { return k == KindFunc || k == KindMethod }

// Target is one function dowse explores.
type Target struct {
	Name     string         // PutXxx or FuzzXxx
	Kind     Kind           //
	External bool           // declared in the external test package
	Pos      token.Position // position of the declaration
	Decl     *ast.FuncDecl  // the PutXxx or FuzzXxx declaration
	// Func is, for a fuzz target, the function passed to f.Fuzz: a literal
	// or the declaration of a named function (then FuncDecl is set).
	Func     *ast.FuncLit
	FuncDecl *ast.FuncDecl
	Params   []*types.Var // the inputs: the parameters after *testing.T (automatic targets: the receiver, then the parameters)
	// Variadic says the last parameter is variadic (...T): its input is
	// a []T, passed spread (f(a, xs...)).
	Variadic bool
	Results  []*types.Var // automatic targets: the results
	// PanicsDocumented marks an automatic target whose panics are part of
	// its contract: its name starts with Must, or its doc comment says it
	// panics ("It panics if capacity is negative").
	PanicsDocumented bool
	// AssertSites are, for an automatic target, the positions
	// ("file:line") of the unchecked type assertions on its parameters
	// among the first statements of its body, before anything with an
	// effect (see assertSites): a failed one is a precondition of the
	// function, not a bug.
	AssertSites []string
	// IndexSites are, for the Less and Swap methods of a sort.Interface,
	// the positions ("file:line") where they index with their parameters
	// (see indexSites): an index out of range there is a precondition of
	// the method, not a bug.
	IndexSites []string
	// Writes are, for an automatic target, the package-level variables
	// it (or a function building its inputs) assigns, by name: its
	// generated tests restore them when they end (see packageWrites).
	Writes []string
	// Funcs are the functions the layout's built values call (constructors
	// and methods, rt.Build), by expression.
	Funcs map[string]*types.Func
	// Expr is, for an automatic target, the Go expression of the function
	// in its package: "Sum", "Point.Area", "(*List).Push".
	Expr string
	// Layout is the model of the inputs (see rt.Layout), without its
	// bounds (SetBounds sets them); nil if Err is set.
	Layout *rt.Layout
	// Dyn are the dynamic types the layout offers interface inputs, by
	// their shapes' Type ("*Dest", "*dowseQueueTopic"), and Mocks the
	// generated mock types among them (docs/mocks.md).
	Dyn   map[string]types.Type
	Mocks []*mock.Type
	// Vars are the package-level variables offered as dynamic values
	// (io.EOF for an error a mock returns), by their shapes' Type.
	Vars  map[string]*types.Var
	Seeds [][]any // fuzz targets: constant arguments of f.Add calls (int64, uint64, float64, bool, string, []byte)
	// Sandbox are the isolated call sites whose results are inputs too
	// (AddSandbox): the last len(Sandbox) parameters of Layout.
	Sandbox []SandboxParam
	// Pkg is the package the target's code is in (its test variant).
	Pkg *types.Package
	// facts are what the code of the target's package variant does with
	// interface values, scoped to what factRoots reach: the errors of
	// its isolated calls' results are chosen from them (AddSandbox).
	facts     *ifaceFacts
	factRoots []types.Object
	Err       error // why the target cannot be explored (an *UnsupportedError); nil if it can
}

// UnsupportedError says that a target has an input dowse cannot generate.
type UnsupportedError struct {
	Target string // the target's name
	Param  string // the parameter's name, or #n for an unnamed one
	Type   string // the parameter's type as written in the target's package
	Why    string // which part of the type is not allowed, if not the type itself
}

func (e *UnsupportedError) Error() string {
	s := fmt.Sprintf("%s: unsupported parameter type %s", e.Target, e.Type)
	if e.Param != "" {
		s = fmt.Sprintf("%s: parameter %s: unsupported parameter type %s", e.Target, e.Param, e.Type)
	}
	if e.Why != "" {
		s += " (" + e.Why + ")"
	}
	return s
}

// CompileErrors reports that the packages do not compile; Errors are the
// go command's and the type checker's messages as "file:line:col: msg".
type CompileErrors struct {
	Errors []string
}

func (e *CompileErrors) Error() string {
	return strings.Join(e.Errors, "\n")
}

// Load loads the packages matched by patterns, with their tests, and finds
// their targets. Packages outside the main module are skipped with a
// warning in the returned list. If any package (or dependency) fails to
// load or type-check, Load returns a *CompileErrors.
func Load(cfg Config, patterns ...string) (pkgs []*Package, warnings []string, err error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	fset := token.NewFileSet()
	mode := Mode
	if cfg.Deps {
		mode |= packages.NeedDeps
	}
	pcfg := &packages.Config{
		Context:    cfg.Context,
		Mode:       mode,
		Dir:        cfg.Dir,
		Env:        env,
		BuildFlags: cfg.BuildFlags,
		Tests:      true,
		Fset:       fset,
	}
	roots, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	if err := notPackages(roots); err != nil {
		if hint := workspaceHint(env, cfg.Dir); hint != "" {
			err = fmt.Errorf("%w\n%s", err, hint)
		}
		return nil, nil, err
	}
	if cerr := compileErrors(roots, cfg.Dir); cerr != nil {
		// dowse's own generated files may be stale (a PUT's parameters
		// changed since they were written): load again without them, as
		// they will be regenerated anyway.
		stubs := staleGenerated(roots)
		if len(stubs) == 0 {
			return nil, nil, cerr
		}
		pcfg.Overlay = stubs
		pcfg.Fset = token.NewFileSet()
		fset = pcfg.Fset
		roots, err = packages.Load(pcfg, patterns...)
		if err != nil {
			return nil, nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
		}
		if compileErrors(roots, cfg.Dir) != nil {
			return nil, nil, cerr
		}
		for _, name := range slices.Sorted(maps.Keys(stubs)) {
			warnings = append(warnings, fmt.Sprintf("%s: generated by dowse and does not compile: ignored (it is regenerated)", relPos(name, cfg.Dir)))
		}
	}

	// Group the variants by the package they test.
	byPath := map[string]*Package{}
	var order []string
	get := func(path string) *Package {
		p := byPath[path]
		if p == nil {
			p = &Package{Path: path, Fset: fset}
			byPath[path] = p
			order = append(order, path)
		}
		return p
	}
	for _, r := range roots {
		switch {
		case strings.HasSuffix(r.ID, ".test") && r.Name == "main" && !strings.Contains(r.ID, " "):
			// The generated test main package.
			continue
		case strings.HasSuffix(r.PkgPath, "_test") && strings.Contains(r.ID, " ["):
			p := get(strings.TrimSuffix(r.PkgPath, "_test"))
			p.XTest = r
		case strings.Contains(r.ID, " ["):
			p := get(r.PkgPath)
			p.Test = r
		default:
			p := get(r.PkgPath)
			p.Plain = r
		}
	}
	sort.Strings(order)
	for _, path := range order {
		p := byPath[path]
		base := p.Plain
		if base == nil {
			base = p.Test
		}
		if base == nil { // only an external test package: the package under test has no files
			base = p.XTest
		}
		p.Name = base.Name
		p.Module = base.Module
		p.Dir = packageDir(base)
		if p.Module == nil || !p.Module.Main {
			warnings = append(warnings, fmt.Sprintf("%s: not in the main module: skipped", p.Path))
			continue
		}
		// One set of mock types per variant, shared by its PUTs and its
		// automatic targets: the harness and the file of mock types
		// declare them together, so their names must differ.
		decls := map[*packages.Package]*mockDecls{}
		declsOf := func(v *packages.Package) *mockDecls {
			if decls[v] == nil {
				decls[v] = &mockDecls{made: map[string]*mock.Type{}}
			}
			return decls[v]
		}
		for _, v := range []struct {
			pkg      *packages.Package
			external bool
		}{{p.Test, false}, {p.XTest, true}} {
			if v.pkg == nil {
				continue
			}
			targets, warns := findTargets(v.pkg, fset, v.external, cfg, declsOf(v.pkg))
			p.Targets = append(p.Targets, targets...)
			warnings = append(warnings, warns...)
		}
		if len(p.Targets) == 0 || cfg.Auto {
			v := p.Test
			if v == nil {
				v = p.Plain
			}
			if v != nil {
				p.Targets = append(p.Targets, findAutoTargets(v, fset, cfg, declsOf(v))...)
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, warnings, nil
}

func packageDir(p *packages.Package) string {
	if p.Dir != "" {
		return p.Dir
	}
	for _, f := range p.GoFiles {
		return filepath.Dir(f)
	}
	return ""
}

// compileErrors collects the errors of roots and their dependencies like
// packages.PrintErrors does, deduplicated (test variants repeat the errors
// of the package they extend) and in a stable order.
func compileErrors(roots []*packages.Package, dir string) error {
	seen := map[string]bool{}
	var errs []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = relPos(e.Pos, dir) + ": " + e.Msg
			}
			// The go command's own compile errors come as one message
			// with a "# pkg" header line; the type checker reports the
			// same errors one by one.
			for _, line := range strings.Split(msg, "\n") {
				line = strings.TrimSpace(line)
				if line == "" || strings.HasPrefix(line, "# ") || seen[line] {
					continue
				}
				seen[line] = true
				errs = append(errs, line)
			}
		}
		if p.Module != nil && p.Module.Error != nil {
			msg := p.Module.Path + ": " + p.Module.Error.Err
			if !seen[msg] {
				seen[msg] = true
				errs = append(errs, msg)
			}
		}
	})
	if len(errs) == 0 {
		return nil
	}
	return &CompileErrors{Errors: errs}
}

// notPackages reports the roots that are no packages at all — a pattern
// naming a directory without Go files, or an import path no module
// provides — which are mistakes in the patterns, not code that does not
// compile.
func notPackages(roots []*packages.Package) error {
	var errs []string
	for _, r := range roots {
		if len(r.Errors) == 0 || len(r.GoFiles) > 0 || len(r.CompiledGoFiles) > 0 || len(r.IgnoredFiles) > 0 || len(r.OtherFiles) > 0 {
			continue
		}
		for _, e := range r.Errors {
			if e.Kind == packages.ListError {
				errs = append(errs, strings.Join(strings.Fields(e.Msg), " "))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("the patterns name no packages: %s", strings.Join(errs, "; "))
}

// relPos shortens an absolute "file:line:col" position to a path relative
// to dir when the file is beneath it, as the go command prints them
// ("./x.go" in dir itself, "sub/x.go" below it), so that its messages and
// the type checker's can be told apart only by content.
func relPos(pos, dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil || !filepath.IsAbs(pos) {
		return pos
	}
	rel, err := filepath.Rel(dir, pos)
	if err != nil || strings.HasPrefix(rel, "..") {
		return pos
	}
	if !strings.ContainsRune(rel, filepath.Separator) {
		return "." + string(filepath.Separator) + rel // as the go command prints files of its directory
	}
	return rel
}

// IsCompileError reports whether err says the user's code does not compile.
func IsCompileError(err error) bool {
	var c *CompileErrors
	return errors.As(err, &c)
}

// GeneratedHeader starts every file dowse generates.
const GeneratedHeader = "// Code generated by dowse. DO NOT EDIT."

// staleGenerated returns, for every dowse-generated file of the packages,
// an overlay that replaces it by its package clause alone.
func staleGenerated(roots []*packages.Package) map[string][]byte {
	stubs := map[string][]byte{}
	seen := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, name := range append(append([]string(nil), p.GoFiles...), p.CompiledGoFiles...) {
			if seen[name] || !strings.HasSuffix(name, "_test.go") {
				continue
			}
			seen[name] = true
			data, err := os.ReadFile(name)
			if err != nil || !bytes.HasPrefix(data, []byte(GeneratedHeader)) {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.PackageClauseOnly)
			if err != nil {
				continue
			}
			stubs[name] = []byte(GeneratedHeader + "\n\npackage " + f.Name.Name + "\n")
		}
	})
	return stubs
}
