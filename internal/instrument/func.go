package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// fn is the rewrite state of one function body (a declaration or literal).
type fn struct {
	fl    *file
	id    uint32 // call-register id; 0 for literals
	sig   *types.Signature
	comp  map[types.Object]string // companions of locals
	temps map[ast.Expr]temp       // hoisted temporaries, with their shadows
	types map[ast.Expr]types.Type // types of synthetic nodes
	// pickedIndex holds the index expressions whose index was wrapped in
	// rt.PickI (see pickIndex).
	pickedIndex map[*ast.IndexExpr]bool
	// mapKeys holds the map index expressions whose key was wrapped in
	// rt.MapKeyI (see mapKey), with the original key expression.
	mapKeys map[*ast.IndexExpr]ast.Expr
	// mapEntries holds the elements with shadows of the map literals
	// hoistLit builds (see mapLit).
	mapEntries map[*ast.CompositeLit][]mapLitEntry
	results    []types.Object // named results (nil entries for unnamed)
	hasGoto    bool
	method     bool // a method declaration: the receiver is parameter 0
	// inMem holds the locals of a tracked type whose address the function
	// (or a literal in it) takes: their shadows live in memory cells too,
	// which code that writes through the pointer updates, and reads take
	// them from there (see addressTaken).
	inMem map[types.Object]bool
	// deferredResults holds, for a function literal run by a defer
	// statement (and the literals inside it), the named results of the
	// enclosing functions it may set after their rt.Ret (see
	// resultsSetLate).
	deferredResults map[types.Object]bool
}

// temp is what the rewrite knows of a node it created.
type temp struct {
	t  types.Type
	sh ast.Expr // shadow expression (of type rt.S), nil if concrete
}

func (fl *file) newFn(id uint32, sig *types.Signature, body *ast.BlockStmt) *fn {
	f := &fn{fl: fl, id: id, sig: sig, comp: map[types.Object]string{}, temps: map[ast.Expr]temp{}, types: map[ast.Expr]types.Type{}}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				f.hasGoto = true
			}
		}
		return true
	})
	return f
}

func (fl *file) funcDecl(d *ast.FuncDecl) {
	obj, _ := fl.info.Defs[d.Name].(*types.Func)
	if obj == nil {
		return
	}
	sig := obj.Type().(*types.Signature)
	f := fl.newFn(FuncID(obj), sig, d.Body)
	f.inMem = fl.addressTaken(d)
	var params []*ast.Field
	if d.Recv != nil {
		params = append(params, d.Recv.List...)
		f.method = true
	}
	params = append(params, d.Type.Params.List...)
	var results []*ast.Field
	if d.Type.Results != nil {
		results = d.Type.Results.List
	}
	d.Body.List = append(f.prologue(params, results), f.block(d.Body.List)...)
}

// funcLit instruments the function literal e. A literal inside a function
// body (parent non-nil) shares the companions of the enclosing function:
// a captured variable's companion is captured with it, so the literal reads
// and writes the same shadow as the code around it, however late it runs.
func (fl *file) funcLit(e *ast.FuncLit, parent *fn) {
	sig, _ := fl.typeOf(e).(*types.Signature)
	if sig == nil {
		return
	}
	f := fl.newFn(0, sig, e.Body)
	if parent != nil {
		f.comp = parent.comp
		f.inMem = parent.inMem
		f.deferredResults = parent.deferredResults
	} else {
		f.inMem = fl.addressTaken(e)
	}
	var results []*ast.Field
	if e.Type.Results != nil {
		results = e.Type.Results.List
	}
	if fl.deferring != nil {
		f.deferredResults, fl.deferring = fl.deferring, nil
	}
	e.Body.List = append(f.prologue(e.Type.Params.List, results), f.block(e.Body.List)...)
}

// resultsSetLate is what assign adds after an assignment in a deferred
// function literal to a named result of an enclosing function (or a part
// of one): the enclosing function handed its results' shadows to its
// caller with rt.Ret before the deferred call changed them, so the
// caller would read a stale shadow. A concretization is recorded instead
// (`defer func() { res.N = n }()`, seen once as one path, "exhaustive").
func (f *fn) resultsSetLate(lhs []ast.Expr) []ast.Stmt {
	if len(f.deferredResults) == 0 {
		return nil
	}
	for _, l := range lhs {
		root := l
		for {
			switch x := ast.Unparen(root).(type) {
			case *ast.SelectorExpr:
				root = x.X
				continue
			case *ast.IndexExpr:
				root = x.X
				continue
			}
			break
		}
		if id, ok := ast.Unparen(root).(*ast.Ident); ok && f.deferredResults[f.fl.info.ObjectOf(id)] {
			site := f.fl.site(l.Pos(), "defer")
			return []ast.Stmt{&ast.ExprStmt{X: f.fl.rtCall("Conc", intLit(uint64(site)),
				&ast.BasicLit{Kind: token.STRING, Value: `"a result set by a deferred function"`})}}
		}
	}
	return nil
}

// addressTaken returns the local variables and parameters of a tracked
// type (integers, bools, strings, slices) whose address the function n
// takes, with & or by calling a pointer method on them. Their companion
// alone would go stale when code writes through the pointer (x's shadow
// after Pop(&x) would still be the old length), and code that reads
// through it would find no shadow.
func (fl *file) addressTaken(n ast.Node) map[types.Object]bool {
	taken := map[types.Object]bool{}
	mark := func(e ast.Expr) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return
		}
		v, ok := fl.info.ObjectOf(id).(*types.Var)
		if !ok || v.IsField() || v.Parent() == fl.pkg.Types.Scope() {
			return
		}
		switch classOf(v.Type()) {
		case scalar, str, slice:
			taken[v] = true
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				mark(x.X)
			}
		case *ast.SelectorExpr:
			sel := fl.info.Selections[x]
			if sel == nil || sel.Kind() != types.MethodVal {
				break
			}
			recv := sel.Obj().Type().(*types.Signature).Recv()
			if _, ptrRecv := types.Unalias(recv.Type()).(*types.Pointer); ptrRecv {
				if _, ptrX := types.Unalias(sel.Recv()).(*types.Pointer); !ptrX {
					mark(x.X) // x.M() with M on *T takes &x
				}
			}
		}
		return true
	})
	return taken
}

// litsOnly instruments the function literals in e without touching e
// otherwise (package-level initialisers).
func (fl *file) litsOnly(e ast.Expr) ast.Expr {
	ast.Inspect(e, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			fl.funcLit(lit, nil)
			return false
		}
		return true
	})
	return e
}

// companion declares (registers) the companion of local variable obj and
// returns its name.
func (f *fn) companion(obj types.Object) string {
	if name, ok := f.comp[obj]; ok {
		return name
	}
	name := f.fl.fresh(obj.Name() + "_s")
	f.comp[obj] = name
	return name
}

// prologue declares the companions of the parameters and named results and
// takes the argument shadows announced by the caller.
func (f *fn) prologue(params, results []*ast.Field) []ast.Stmt {
	var decls []ast.Stmt
	var takes []ast.Stmt
	var names []ast.Expr
	i := 0
	for _, field := range params {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, name := range field.Names {
			obj := f.fl.info.Defs[name]
			if obj == nil || name.Name == "_" {
				i++
				continue
			}
			switch classOf(obj.Type()) {
			case scalar, str, slice:
				c := f.companion(obj)
				names = append(names, ast.NewIdent(c))
				decls = append(decls, varDecl(c, f.fl.rtSel("Sh")))
				fp := f.fl.fp(ast.NewIdent(name.Name), obj.Type())
				takes = append(takes, assign(ast.NewIdent(c), f.fl.rtCall("Mk", f.fl.rtCall("In", intLit(uint64(i)), fp), fp)))
				if f.inMem[obj] {
					decls = append(decls, f.fl.escape(ast.NewIdent(name.Name)))
					takes = append(takes, &ast.ExprStmt{X: f.fl.rtCall("StSh", f.fl.addr(ast.NewIdent(name.Name)), ast.NewIdent(c))})
				}
			case untracked:
				// Generic code keeps no shadows of values whose type is a
				// type parameter: a shadow announced for one is lost here.
				if isTypeParam(obj.Type()) {
					site := f.fl.site(name.Pos(), "generic")
					takes = append(takes, &ast.ExprStmt{X: f.fl.rtCall("InLost", intLit(uint64(site)), intLit(uint64(i)),
						f.fl.sizeof(ast.NewIdent(name.Name)))})
				}
			case aggregate:
				if hasCells(obj.Type()) {
					decls = append(decls, f.fl.escape(ast.NewIdent(name.Name)))
				}
				takes = append(takes, &ast.ExprStmt{X: f.fl.rtCall("InAgg", intLit(uint64(i)),
					f.fl.addr(ast.NewIdent(name.Name)), f.fl.sizeof(ast.NewIdent(name.Name)))})
			}
			i++
		}
	}
	n := i
	for _, field := range results {
		for _, name := range field.Names {
			obj := f.fl.info.Defs[name]
			f.results = append(f.results, obj)
			if obj == nil || name.Name == "_" {
				continue
			}
			if c := classOf(obj.Type()); c == scalar || c == str || c == slice {
				cn := f.companion(obj)
				names = append(names, ast.NewIdent(cn))
				decls = append(decls, varDecl(cn, f.fl.rtSel("Sh")))
			} else if c == aggregate && hasCells(obj.Type()) {
				decls = append(decls, f.fl.escape(ast.NewIdent(name.Name)))
			}
		}
	}
	var out []ast.Stmt
	out = append(out, decls...)
	if n > 0 {
		// A method may be entered through a method value, whose caller
		// announces the arguments without the receiver.
		enter := "Enter"
		if f.method {
			enter = "EnterMethod"
		}
		out = append(out, &ast.IfStmt{
			Cond: f.fl.rtCall(enter, intLit(uint64(f.id)), intLit(uint64(n))),
			Body: &ast.BlockStmt{List: takes},
		})
		if len(takes) == 0 {
			out[len(out)-1] = &ast.ExprStmt{X: f.fl.rtCall(enter, intLit(uint64(f.id)), intLit(uint64(n)))}
		}
	}
	if len(names) > 0 {
		out = append(out, use(names...))
	}
	return out
}

func varDecl(name string, typ ast.Expr) ast.Stmt {
	return &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(name)}, Type: typ}}}}
}

func assign(lhs, rhs ast.Expr) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{lhs}, Tok: token.ASSIGN, Rhs: []ast.Expr{rhs}}
}

func define(lhs, rhs ast.Expr) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{lhs}, Tok: token.DEFINE, Rhs: []ast.Expr{rhs}}
}

// use is "_, _ = a, b", which keeps variables used.
func use(names ...ast.Expr) ast.Stmt {
	lhs := make([]ast.Expr, len(names))
	for i := range lhs {
		lhs[i] = ast.NewIdent("_")
	}
	return &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: names}
}

// newTemp returns a fresh temporary name. It carries the position of the
// statement being rewritten, so that a hoisted call's line directive names
// that statement's line (runtime.Caller and stack traces of the call see
// the original line, not the line of an earlier statement).
func (f *fn) newTemp() *ast.Ident {
	id := ast.NewIdent(f.fl.fresh("dwt"))
	id.NamePos = f.fl.stmtPos
	return id
}
