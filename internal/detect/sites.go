package detect

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"

	"github.com/dowse-go/dowse/internal/detect/sources"
)

// syntaxUnit is the part of a package the site and summary code needs.
type syntaxUnit struct {
	path    string
	fset    *token.FileSet
	files   []*ast.File
	info    *types.Info
	modPath string
	root    string // directory file names are relative to
}

// session is one solved analysis over a set of functions.
type session struct {
	fset  *token.FileSet
	prog  *ssa.Program
	cls   *sources.Classifier
	eng   *engine
	calls map[token.Pos][]ssa.CallInstruction
	// mockFiles caches, per file name, whether it declares mock types.
	mockFiles map[string]bool
}

func newSession(fset *token.FileSet, prog *ssa.Program, cls *sources.Classifier) *session {
	return &session{fset: fset, prog: prog, cls: cls, eng: newEngine(cls), calls: map[token.Pos][]ssa.CallInstruction{}, mockFiles: map[string]bool{}}
}

// add adds fn and its closures to the scope, indexing their calls.
func (s *session) add(fn *ssa.Function) {
	if fn == nil || s.eng.added[fn] {
		return
	}
	s.eng.addFunc(fn)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if pos := c.Common().Pos(); pos.IsValid() {
					s.calls[pos] = append(s.calls[pos], c)
				}
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		s.add(anon)
	}
}

// addFiles adds the functions declared in the given files of a package.
func (s *session) addFiles(pkg *ssa.Package, files []*ast.File, info *types.Info, keep func(*ast.File) bool) {
	for _, f := range files {
		if !keep(f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			s.add(s.prog.FuncValue(obj))
		}
	}
	if init := pkg.Func("init"); init != nil {
		s.add(init)
	}
}

// funcsOf returns the functions of test-related declaration d, closures
// included.
func (s *session) funcsOf(obj *types.Func) []*ssa.Function {
	var out []*ssa.Function
	var walk func(fn *ssa.Function)
	walk = func(fn *ssa.Function) {
		if fn == nil {
			return
		}
		out = append(out, fn)
		for _, a := range fn.AnonFuncs {
			walk(a)
		}
	}
	walk(s.prog.FuncValue(obj))
	return out
}

// sites returns every call site of the test files of u, in file order.
func (s *session) sites(u *syntaxUnit) []*Site {
	var out []*Site
	for _, f := range u.files {
		name := s.fset.File(f.FileStart).Name()
		if !isTestFile(name) {
			continue
		}
		rel := relPath(u.root, name)
		for _, d := range f.Decls {
			label := declLabel(d)
			ast.Inspect(d, func(n ast.Node) bool {
				ce, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if site := s.site(u, ce); site != nil {
					site.File, site.Test, site.Package = rel, label, u.path
					out = append(out, site)
				}
				return true
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return out
}

// site classifies one call expression; it returns nil for conversions and
// calls of builtins, which are not call sites.
func (s *session) site(u *syntaxUnit, ce *ast.CallExpr) *Site {
	fun := ast.Unparen(ce.Fun)
	if tv, ok := u.info.Types[fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return nil
	}
	pos := s.fset.Position(namePos(fun))
	site := &Site{Line: pos.Line, Column: pos.Column, pos: namePos(fun)}
	var recvExpr bool
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		if sel, ok := u.info.Selections[f]; ok {
			switch sel.Kind() {
			case types.MethodVal, types.MethodExpr:
				recvExpr = true
				site.Method = true
				site.Callee = sources.Qualified(originFunc(sel.Obj()))
				site.callee, _ = originFunc(sel.Obj()).(*types.Func)
			default:
				site.Callee = types.ExprString(fun)
			}
		} else if obj, ok := u.info.Uses[f.Sel].(*types.Func); ok {
			site.Callee = sources.Qualified(obj.Origin())
			site.callee = obj.Origin()
		} else {
			site.Callee = types.ExprString(fun)
		}
	default:
		if obj, ok := u.info.Uses[baseIdent(fun)].(*types.Func); ok {
			site.Callee = sources.Qualified(obj.Origin())
			site.callee = obj.Origin()
		} else {
			site.Callee = types.ExprString(fun)
		}
	}
	calls := s.calls[ce.Lparen]
	if len(calls) == 0 {
		site.Reason = "no SSA call at this position (unreachable code, or outside the analysed functions)"
		return site
	}
	if !recvExpr {
		return site
	}
	for _, c := range calls {
		if s.eng.mayMock(receiver(c.Common())) {
			site.Mock = true
			break
		}
	}
	return site
}

func originFunc(obj types.Object) types.Object {
	if fn, ok := obj.(*types.Func); ok {
		return fn.Origin()
	}
	return obj
}

// receiver returns the receiver operand of a method call.
func receiver(c *ssa.CallCommon) ssa.Value {
	if c.IsInvoke() {
		return c.Value
	}
	if len(c.Args) > 0 {
		return c.Args[0]
	}
	return nil
}

// namePos is the position of the called name: f in x.f(), F in F[T]().
func namePos(fun ast.Expr) token.Pos {
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Pos()
	case *ast.IndexExpr:
		return namePos(ast.Unparen(f.X))
	case *ast.IndexListExpr:
		return namePos(ast.Unparen(f.X))
	}
	return fun.Pos()
}

func baseIdent(fun ast.Expr) *ast.Ident {
	switch f := fun.(type) {
	case *ast.Ident:
		return f
	case *ast.IndexExpr:
		return baseIdent(ast.Unparen(f.X))
	case *ast.IndexListExpr:
		return baseIdent(ast.Unparen(f.X))
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// declLabel names a top-level declaration: F, or T.M for methods.
func declLabel(d ast.Decl) string {
	fd, ok := d.(*ast.FuncDecl)
	if !ok {
		return "init"
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return recvTypeName(fd.Recv.List[0].Type) + "." + fd.Name.Name
}

func recvTypeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvTypeName(t.X)
	case *ast.ParenExpr:
		return recvTypeName(t.X)
	case *ast.IndexExpr:
		return recvTypeName(t.X)
	case *ast.IndexListExpr:
		return recvTypeName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return types.ExprString(e)
}

// isTestRelated reports whether a declaration is a test, benchmark, fuzz
// target, example, TestMain, or a suite's test, setup or teardown method.
func isTestRelated(fd *ast.FuncDecl) bool {
	name := fd.Name.Name
	if fd.Recv != nil {
		return strings.HasPrefix(name, "Test") || setupMethods[name] || teardownMethods[name]
	}
	if name == "TestMain" {
		return true
	}
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			if rest == "" || !unicode.IsLower(r) {
				return true
			}
		}
	}
	return false
}

// setupMethods run before tests (testify suites, gocheck); fields they
// assign are "setup" field mocks. TestMain counts too.
var setupMethods = map[string]bool{
	"SetupTest": true, "SetupSuite": true, "SetupSubTest": true, "BeforeTest": true,
	"SetUpTest": true, "SetUpSuite": true,
}

var teardownMethods = map[string]bool{
	"TearDownTest": true, "TearDownSuite": true, "TearDownSubTest": true, "AfterTest": true,
}

// relPath returns name relative to root with forward slashes, or name
// itself when it is not below root.
func relPath(root, name string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(name)
}
