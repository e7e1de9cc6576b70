package load

import (
	"go/ast"
	"go/token"
	"go/types"
)

// readOnlyMethods returns the pointer-receiver methods of the package's
// own types (in files) that never change their receiver: a built value's
// method calls are meant to change it (rt.Build), and a call of such a
// method changes nothing, so offering it only spends the exploration's
// budget. The analysis is syntactic and conservative: a method changes
// its receiver if it assigns (or increments, or takes the address of)
// anything reached from the receiver or from a local that holds something
// reached from it, passes such a value to a function or to append, copy,
// delete or clear, or calls a method on it that is not itself read-only.
// A method it cannot follow is a writer.
func readOnlyMethods(info *types.Info, files []*ast.File) map[*types.Func]bool {
	type method struct {
		fn   *types.Func
		decl *ast.FuncDecl
		recv types.Object
	}
	var methods []method
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if _, ptr := types.Unalias(fn.Type().(*types.Signature).Recv().Type()).(*types.Pointer); !ptr {
				continue
			}
			methods = append(methods, method{fn, fd, info.Defs[fd.Recv.List[0].Names[0]]})
		}
	}
	readOnly := map[*types.Func]bool{}
	for _, m := range methods {
		if m.recv != nil {
			readOnly[m.fn] = true
		}
	}
	// Greatest fixed point: a method stops being read-only when it writes
	// or calls a method that is not.
	for changed := true; changed; {
		changed = false
		for _, m := range methods {
			if readOnly[m.fn] && writesReceiver(info, m.decl.Body, m.recv, readOnly) {
				readOnly[m.fn] = false
				changed = true
			}
		}
	}
	return readOnly
}

// writesReceiver reports whether body may change what recv reaches (see
// readOnlyMethods).
func writesReceiver(info *types.Info, body *ast.BlockStmt, recv types.Object, readOnly map[*types.Func]bool) bool {
	derived := map[types.Object]bool{recv: true}
	// reaches reports whether e's value is reached from the receiver.
	var reaches func(e ast.Expr) bool
	reaches = func(e ast.Expr) bool {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return derived[info.Uses[x]]
		case *ast.SelectorExpr:
			if _, isSel := info.Selections[x]; isSel {
				return reaches(x.X)
			}
		case *ast.IndexExpr:
			return reaches(x.X)
		case *ast.SliceExpr:
			return reaches(x.X)
		case *ast.StarExpr:
			return reaches(x.X)
		case *ast.UnaryExpr:
			return x.Op == token.AND && reaches(x.X)
		case *ast.CallExpr:
			// The result of a method of the receiver may point into it.
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				return reaches(sel.X)
			}
		}
		return false
	}
	writes := false
	// Locals that take something reached from the receiver are followed
	// until no more are found.
	for grew := true; grew && !writes; {
		grew = false
		ast.Inspect(body, func(n ast.Node) bool {
			if writes {
				return false
			}
			switch s := n.(type) {
			case *ast.AssignStmt:
				for i, l := range s.Lhs {
					if _, isIdent := ast.Unparen(l).(*ast.Ident); !isIdent && reaches(l) {
						writes = true // a store into what the receiver reaches
					}
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && (len(s.Rhs) == len(s.Lhs) && reaches(s.Rhs[i]) || len(s.Rhs) == 1 && reaches(s.Rhs[0])) {
						if obj := info.ObjectOf(id); obj != nil && !derived[obj] {
							if obj == recv {
								writes = true
							}
							derived[obj] = true
							grew = true
						}
					}
				}
			case *ast.RangeStmt:
				if reaches(s.X) {
					for _, v := range []ast.Expr{s.Key, s.Value} {
						if id, ok := v.(*ast.Ident); ok {
							if obj := info.ObjectOf(id); obj != nil && !derived[obj] {
								derived[obj] = true
								grew = true
							}
						}
					}
				}
			case *ast.IncDecStmt:
				if _, isIdent := ast.Unparen(s.X).(*ast.Ident); !isIdent && reaches(s.X) {
					writes = true
				}
			case *ast.UnaryExpr:
				if s.Op == token.AND && reaches(s.X) {
					writes = true // an address that may be written through
				}
			case *ast.CallExpr:
				writes = writes || callWrites(info, s, reaches, readOnly)
			case *ast.GoStmt, *ast.FuncLit:
				writes = true // not followed
			}
			return !writes
		})
	}
	return writes
}

// callWrites reports whether call may change what reaches says the
// receiver reaches: a method called on it that is not read-only, or such
// a value passed to a function or to a builtin that writes.
func callWrites(info *types.Info, call *ast.CallExpr, reaches func(ast.Expr) bool, readOnly map[*types.Func]bool) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return false // a conversion
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "min", "max", "print", "println", "panic", "complex", "real", "imag", "new", "make":
				return false
			}
			for _, a := range call.Args {
				if reaches(a) {
					return true // append, copy, delete, clear
				}
			}
			return false
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && reaches(sel.X) {
		fn, _ := info.Uses[sel.Sel].(*types.Func)
		if fn == nil || fn.Type().(*types.Signature).Recv() == nil {
			return true // a func field, or a function of a package value
		}
		_, basic := fn.Type().(*types.Signature).Recv().Type().Underlying().(*types.Basic)
		if !basic && !readOnly[fn] {
			return true
		}
	}
	for _, a := range call.Args {
		if reaches(a) {
			return true
		}
	}
	return false
}
