// Package isolate is the isolation sandbox's static part (seeds 002 and
// 004; docs/isolate.md): it finds the external calls of a unit under test,
// decides by what the callee may do (Effects, StdEffect, the -isolate and
// -real overrides) which of them are isolated, rewrites each isolated call
// into a call of a sandbox function of a generated file of the package,
// and writes that file. At run time (rt/sandbox.go) a sandbox function
// returns what its site's variable, set from the target's inputs, returns
// — the real callee never runs.
package isolate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"
)

// Config is the isolation policy's overrides.
type Config struct {
	// Off turns isolation off: every call runs for real.
	Off bool
	// Isolate and Real name packages ("example.com/db", all of its
	// functions and methods), functions ("example.com/db.Query") or
	// methods ("example.com/db.Conn.Query") to isolate, or to keep real,
	// whatever the effect analysis says. Real wins over Isolate.
	Isolate []string
	Real    []string
	// Unit names, besides the explored package, the packages of the
	// unit under test (-unit: import paths, "path/..." for a tree):
	// calls between them stay real, and their own external calls are
	// isolated too.
	Unit []string
}

// InUnit reports whether path is named by the -unit patterns.
func (c Config) InUnit(path string) bool {
	for _, p := range c.Unit {
		tree, isTree := strings.CutSuffix(p, "/...")
		if p == path || isTree && (path == tree || strings.HasPrefix(path, tree+"/")) {
			return true
		}
	}
	return false
}

// Parse reads the values of the -isolate, -real and -unit flags:
// comma-separated lists; -isolate=off turns isolation off.
func Parse(isolate, real string, unit ...string) Config {
	var c Config
	for _, u := range unit {
		for _, s := range strings.Split(u, ",") {
			if s = strings.TrimSpace(s); s != "" {
				c.Unit = append(c.Unit, s)
			}
		}
	}
	for _, s := range strings.Split(isolate, ",") {
		switch s = strings.TrimSpace(s); s {
		case "", "auto", "on":
		case "off":
			c.Off = true
		default:
			c.Isolate = append(c.Isolate, s)
		}
	}
	for _, s := range strings.Split(real, ",") {
		if s = strings.TrimSpace(s); s != "" {
			c.Real = append(c.Real, s)
		}
	}
	return c
}

// matches reports whether fn is named by one of the patterns.
func matches(fn *types.Func, patterns []string) bool {
	if fn.Pkg() == nil {
		return false
	}
	pkg := fn.Pkg().Path()
	name := pkg + "." + fn.Name()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			name = pkg + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	for _, p := range patterns {
		if p == pkg || p == name || strings.HasSuffix(p, "/...") && strings.HasPrefix(pkg+"/", strings.TrimSuffix(p, "...")) {
			return true
		}
	}
	return false
}

// Site is one isolated call site.
type Site struct {
	Key    string // stable within the package: "TransferMoney.RunQuery.1" (enclosing function, callee, occurrence)
	Var    string // the site's variable in the sandbox file (exported, so that an external test package reaches it)
	Func   string // the sandbox function the call is rewritten into
	Call   *ast.CallExpr
	Callee *types.Func
	Pos    token.Position
	// Stub is the variable's type: the callee's signature as called
	// (instantiated), the receiver first for a method.
	Stub *types.Signature
	// RecvAddr says the receiver is passed as &x (a pointer method
	// called on an addressable value).
	RecvAddr bool
	Method   bool // a method call: the receiver is the first argument
	// Writes are the indices of Stub's parameters through which the
	// callee may write (pointers; the parameter analysis of "Generating Unit Isolation
	// Environment Using Symbolic Execution").
	Writes []int
	// Value says the function is used as a value, not called here (var
	// timeNow = time.Now): the reference is replaced by the sandbox
	// function, and Call is nil.
	Value bool
	// Owner is the function or method the site is in (nil for a
	// package-level initializer): a target's inputs hold the sites of the
	// functions it may reach (Reach).
	Owner *types.Func
	Why   string // why it is isolated: the environment API it reaches, or "-isolate"
	real  string // the real call in the sandbox file, before arguments
}

// External is one function or method of another package the unit calls
// (IMethods in "Automated Isolation for White-box Test Generation"),
// with the decision.
type External struct {
	Name     string // "bankdb.RunQuery", "(*processor.TransferProcessor).Process"
	Calls    int    // call sites in the unit
	Isolated bool
	Why      string // isolated: the API it reaches or "-isolate"; real: "pure", "-real", or why it could not be isolated
}

// Unit is the isolation plan of one package of the unit under test.
type Unit struct {
	Path      string         // import path
	Name      string         // package name
	Types     *types.Package // the package
	Sites     []*Site
	Externals []External
	// Members counts the reads of other packages' package-level
	// variables (IMembers in "Automated Isolation for White-box Test Generation");
	// they stay real.
	Members int
	bySite  map[*ast.CallExpr]*Site
	byRef   map[*ast.SelectorExpr]*Site // isolated functions used as values
	File    string                      // the sandbox file (in the package directory, where it does not exist)
	Src     []byte                      // its content
}

// Isolated reports whether call is an isolated call site.
func (u *Unit) Isolated(call *ast.CallExpr) bool { return u != nil && u.bySite[call] != nil }

// Site returns the site of call, or nil.
func (u *Unit) Site(call *ast.CallExpr) *Site {
	if u == nil {
		return nil
	}
	return u.bySite[call]
}

// Analyze finds the isolated calls of the non-test files of p (a package
// loaded with syntax and types) by the policy cfg and the effect analysis
// fx; inUnit reports whether a package path belongs to the unit (calls of
// the unit's own packages are never isolated). It returns nil if nothing
// is isolated and no external is found.
func Analyze(p *packages.Package, fx *Effects, cfg Config, inUnit func(string) bool) (*Unit, error) {
	if cfg.Off {
		return nil, nil
	}
	u := &Unit{Path: p.PkgPath, Name: p.Name, Types: p.Types, bySite: map[*ast.CallExpr]*Site{}, byRef: map[*ast.SelectorExpr]*Site{}}
	ext := map[string]*External{}
	// external returns the record of the external function fn, made on
	// first use.
	external := func(fn *types.Func) *External {
		en := shortName(fn)
		e := ext[en]
		if e == nil {
			e = &External{Name: en}
			ext[en] = e
		}
		return e
	}
	counts := map[string]int{}
	q := newQualifier(p.Types)
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") {
			continue // test code is not code under test
		}
		if u.File == "" {
			u.File = path.Join(path.Dir(filepathToSlash(name)), "zz_dowse_sandbox.go")
		}
		for _, d := range f.Decls {
			owner := "init"
			var ownerFn *types.Func // nil: a package-level initializer, run by every binary
			if fd, ok := d.(*ast.FuncDecl); ok {
				owner = fd.Name.Name
				ownerFn, _ = p.TypesInfo.Defs[fd.Name].(*types.Func)
				if fd.Recv != nil && len(fd.Recv.List) == 1 {
					owner = recvName(fd.Recv.List[0].Type) + "_" + owner
				}
			}
			// The functions called: a qualified function that is not
			// called is used as a value (var timeNow = time.Now).
			called := map[ast.Expr]bool{}
			ast.Inspect(d, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					called[ast.Unparen(call.Fun)] = true
				}
				return true
			})
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if v, ok := p.TypesInfo.Uses[n.Sel].(*types.Var); ok && v.Pkg() != nil && !inUnit(v.Pkg().Path()) && v.Parent() == v.Pkg().Scope() {
						u.Members++
					}
					fn, ok := p.TypesInfo.Uses[n.Sel].(*types.Func)
					if !ok || called[n] || fn.Pkg() == nil || inUnit(fn.Pkg().Path()) || p.TypesInfo.Selections[n] != nil {
						return true
					}
					if _, generic := p.TypesInfo.Instances[n.Sel]; generic {
						return true
					}
					why := ""
					switch {
					case matches(fn, cfg.Real):
						return true
					case matches(fn, cfg.Isolate):
						why = "-isolate"
					default:
						why = fx.Reaches(fn)
					}
					if why == "" {
						return true
					}
					e := external(fn)
					e.Calls++
					counts[owner+"."+fn.Name()]++
					k := fmt.Sprintf("%s.%s.%d", owner, fn.Name(), counts[owner+"."+fn.Name()])
					s, err := u.valueSite(p, q, n, fn, k)
					if err != nil {
						e.Why = "not isolated: " + err.Error()
						return true
					}
					s.Why, e.Isolated, e.Why = why, true, why
					s.Owner = ownerFn
					u.Sites = append(u.Sites, s)
					u.byRef[n] = s
				case *ast.CallExpr:
					callee, sel := staticCallee(p.TypesInfo, n)
					if callee == nil || callee.Pkg() == nil || inUnit(callee.Pkg().Path()) {
						return true
					}
					e := external(callee)
					e.Calls++
					why := ""
					switch {
					case matches(callee, cfg.Real):
						e.Why = "-real"
						return true
					case matches(callee, cfg.Isolate):
						why = "-isolate"
					default:
						why = fx.Reaches(callee)
					}
					if why == "" {
						if e.Why == "" {
							e.Why = "pure"
						}
						return true
					}
					counts[owner+"."+callee.Name()]++
					k := fmt.Sprintf("%s.%s.%d", owner, callee.Name(), counts[owner+"."+callee.Name()])
					s, err := u.site(p, q, n, sel, callee, k, fx)
					if err != nil {
						e.Why = "not isolated: " + err.Error()
						return true
					}
					s.Why = why
					s.Owner = ownerFn
					e.Isolated = true
					e.Why = why
					u.Sites = append(u.Sites, s)
					u.bySite[n] = s
				}
				return true
			})
		}
	}
	for _, e := range ext {
		u.Externals = append(u.Externals, *e)
	}
	sort.Slice(u.Externals, func(i, j int) bool { return u.Externals[i].Name < u.Externals[j].Name })
	if len(u.Externals) == 0 {
		return nil, nil
	}
	if len(u.Sites) > 0 {
		src, err := u.source(q)
		if err != nil {
			return nil, err
		}
		u.Src = src
	}
	return u, nil
}

func filepathToSlash(s string) string { return strings.ReplaceAll(s, "\\", "/") }

// recvName is the name of a receiver's type: T for T, *T, T[K].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "recv"
		}
	}
}

// staticCallee returns the function or method call calls statically (for
// an interface method, the interface's method), and the selector of a
// method call; nil for builtins, conversions and func values.
func staticCallee(info *types.Info, call *ast.CallExpr) (*types.Func, *ast.SelectorExpr) {
	fun := calleeExpr(call)
	switch x := fun.(type) {
	case *ast.Ident:
		fn, _ := info.Uses[x].(*types.Func)
		return fn, nil
	case *ast.SelectorExpr:
		fn, _ := info.Uses[x.Sel].(*types.Func)
		if fn == nil {
			return nil, nil
		}
		if s := info.Selections[x]; s != nil {
			if s.Kind() != types.MethodVal {
				return nil, nil // a method expression T.M(x): not isolated
			}
			return fn, x
		}
		return fn, nil
	}
	return nil, nil
}

// site builds the site of call (callee, selector sel for a method call).
func (u *Unit) site(p *packages.Package, q *qualifier, call *ast.CallExpr, sel *ast.SelectorExpr, callee *types.Func, k string, fx *Effects) (*Site, error) {
	sig, ok := p.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok {
		return nil, fmt.Errorf("no signature")
	}
	s := &Site{Key: k, Call: call, Callee: callee, Pos: p.Fset.Position(call.Pos())}
	ident := sanitize(k)
	s.Var, s.Func = "DowseSandbox_"+ident, "dowseIso_"+ident
	var params []*types.Var
	if sel != nil {
		s.Method = true
		recv := p.TypesInfo.TypeOf(sel.X)
		msig := callee.Type().(*types.Signature)
		if _, isPtr := msig.Recv().Type().Underlying().(*types.Pointer); isPtr {
			if _, xPtr := recv.Underlying().(*types.Pointer); !xPtr && !types.IsInterface(recv) {
				recv = types.NewPointer(recv)
				s.RecvAddr = true
			}
		}
		params = append(params, types.NewVar(token.NoPos, nil, "recv", recv))
	}
	for i := 0; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	s.Stub = types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic())
	if err := q.check(s.Stub); err != nil {
		return nil, err
	}
	// The real call, for runs that are not isolated.
	if sel != nil {
		s.real = "a0." + callee.Name()
	} else {
		name := q.pkgName(callee.Pkg()) + "." + callee.Name()
		if inst, ok := p.TypesInfo.Instances[calleeIdent(call)]; ok && inst.TypeArgs.Len() > 0 {
			var args []string
			for i := 0; i < inst.TypeArgs.Len(); i++ {
				args = append(args, types.TypeString(inst.TypeArgs.At(i), q.qualify))
			}
			name += "[" + strings.Join(args, ", ") + "]"
		}
		s.real = name
	}
	// Pointer parameters the callee may write.
	first := 0
	if s.Method {
		first = 1
	}
	known, analysed := fx.Writes(callee)
	for i := first; i < len(params); i++ {
		if i == len(params)-1 && sig.Variadic() {
			break
		}
		if _, ptr := params[i].Type().Underlying().(*types.Pointer); !ptr {
			continue
		}
		if analysed {
			found := false
			for _, w := range known {
				found = found || w == i-first
			}
			if !found {
				continue
			}
		}
		s.Writes = append(s.Writes, i)
	}
	return s, nil
}

// valueSite builds the site of fn used as a value (ref, pkg.F not
// called): the reference becomes the sandbox function, which has fn's
// signature, so every call through the value is isolated.
func (u *Unit) valueSite(p *packages.Package, q *qualifier, ref *ast.SelectorExpr, fn *types.Func, k string) (*Site, error) {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() != nil {
		return nil, fmt.Errorf("not a function")
	}
	if err := q.check(sig); err != nil {
		return nil, err
	}
	ident := sanitize(k)
	s := &Site{Key: k, Var: "DowseSandbox_" + ident, Func: "dowseIso_" + ident, Callee: fn, Pos: p.Fset.Position(ref.Pos()), Stub: sig, Value: true}
	s.real = q.pkgName(fn.Pkg()) + "." + fn.Name()
	return s, nil
}

// calleeExpr is the expression naming the function of a call, without
// parentheses and type arguments.
func calleeExpr(call *ast.CallExpr) ast.Expr {
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		return x.X
	case *ast.IndexListExpr:
		return x.X
	}
	return fun
}

// calleeIdent is the identifier naming the function of a call.
func calleeIdent(call *ast.CallExpr) *ast.Ident {
	fun := calleeExpr(call)
	switch x := fun.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// sanitize makes a key an identifier part: "T_M.Open.1" -> "T_M_Open_1".
func sanitize(k string) string {
	var b strings.Builder
	for _, r := range k {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// qualifier names the packages types refer to in the sandbox file.
type qualifier struct {
	self  *types.Package
	names map[string]string // path -> import name
	paths []string
}

func newQualifier(self *types.Package) *qualifier {
	return &qualifier{self: self, names: map[string]string{}}
}

func (q *qualifier) pkgName(p *types.Package) string {
	if p == q.self || p.Path() == q.self.Path() {
		return ""
	}
	if n, ok := q.names[p.Path()]; ok {
		return n
	}
	n := "dowseimp" + strconv.Itoa(len(q.names)+1)
	q.names[p.Path()] = n
	q.paths = append(q.paths, p.Path())
	return n
}

func (q *qualifier) qualify(p *types.Package) string { return q.pkgName(p) }

// check reports why the sandbox file cannot name t: an unexported type of
// another package, a package it may not import (internal), a type
// parameter of the calling function.
func (q *qualifier) check(t types.Type) error {
	var err error
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if err != nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			obj := t.Obj()
			if obj.Pkg() != nil && obj.Pkg().Path() != q.self.Path() {
				if !obj.Exported() {
					err = fmt.Errorf("unexported type %s", types.TypeString(t, nil))
					return
				}
				if !importable(q.self.Path(), obj.Pkg().Path()) {
					err = fmt.Errorf("package %s cannot be imported here", obj.Pkg().Path())
					return
				}
			}
			for i := 0; i < t.TypeArgs().Len(); i++ {
				walk(t.TypeArgs().At(i))
			}
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Signature:
			for i := 0; i < t.Params().Len(); i++ {
				walk(t.Params().At(i).Type())
			}
			for i := 0; i < t.Results().Len(); i++ {
				walk(t.Results().At(i).Type())
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				walk(t.Field(i).Type())
			}
		case *types.TypeParam:
			err = fmt.Errorf("a type parameter of the calling function")
		}
	}
	walk(t)
	return err
}

// importable reports whether package from may import path: not an
// internal package of another tree.
func importable(from, path string) bool {
	i := strings.LastIndex(path, "/internal/")
	if i < 0 {
		if strings.HasSuffix(path, "/internal") {
			i = len(path) - len("/internal")
		} else {
			return !strings.HasPrefix(path, "internal/")
		}
	}
	root := path[:i]
	return from == root || strings.HasPrefix(from, root+"/")
}

// Members returns the main module's packages that v imports, directly
// or not, and the -unit patterns name.
func Members(v *packages.Package, cfg Config) []*packages.Package {
	if len(cfg.Unit) == 0 {
		return nil
	}
	var out []*packages.Package
	seen := map[string]bool{v.PkgPath: true}
	var visit func(q *packages.Package)
	visit = func(q *packages.Package) {
		for _, imp := range q.Imports {
			if seen[imp.PkgPath] {
				continue
			}
			seen[imp.PkgPath] = true
			if imp.Module == nil || !imp.Module.Main {
				continue
			}
			if cfg.InUnit(imp.PkgPath) && imp.Types != nil && len(imp.Syntax) > 0 {
				out = append(out, imp)
			}
			visit(imp)
		}
	}
	visit(v)
	return out
}
