// Package survey counts, per package, the code patterns that need
// generated types to be covered (the survey of "Generating Test Cases
// for Programs that Are Coded Against Interfaces and Annotations",
// Tables I and II): type assertions and type switches on interface parameters,
// reflection on parameters, struct tag reads and errors.As — the
// patterns dowse meets with mock types (docs/mocks.md). It reads the
// packages' non-test files.
package survey

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Kinds of findings.
const (
	Assert   = "assert"    // x.(T) on an interface parameter (both forms)
	Switch   = "switch"    // a type switch on an interface parameter
	Reflect  = "reflect"   // reflect.TypeOf/ValueOf of a parameter, or a method of a reflect.Type/Value parameter
	TagRead  = "tag"       // reflect.StructTag.Get or Lookup
	ErrorsAs = "errors.As" // errors.As
)

// Kinds lists the kinds in report order.
var Kinds = []string{Assert, Switch, Reflect, TagRead, ErrorsAs}

// A Finding is one occurrence.
type Finding struct {
	Kind     string `json:"kind"`
	Position string `json:"position"` // file:line:col, relative to the directory the survey ran in
	Func     string `json:"func"`     // the enclosing function
}

// A Package is the survey of one package.
type Package struct {
	Path     string         `json:"package"`
	Funcs    int            `json:"funcs"`    // functions and methods declared
	Flagged  int            `json:"flagged"`  // of those, functions with at least one finding
	Counts   map[string]int `json:"counts"`   // findings by kind
	Findings []Finding      `json:"findings"` // in source order
}

// Run loads the packages matching patterns in dir (without tests) and
// surveys each.
func Run(dir string, tags string, patterns ...string) ([]*Package, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:  dir,
	}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags", tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	var out []*Package
	for _, p := range pkgs {
		out = append(out, surveyPackage(p, dir))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

func surveyPackage(p *packages.Package, dir string) *Package {
	res := &Package{Path: p.PkgPath, Counts: map[string]int{}, Findings: []Finding{}}
	for _, k := range Kinds {
		res.Counts[k] = 0
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			res.Funcs++
			before := len(res.Findings)
			params := map[types.Object]bool{}
			for _, list := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
				if list == nil {
					continue
				}
				for _, field := range list.List {
					for _, n := range field.Names {
						if obj := p.TypesInfo.Defs[n]; obj != nil {
							params[obj] = true
						}
					}
				}
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = types.ExprString(fd.Recv.List[0].Type) + "." + name
			}
			add := func(kind string, pos token.Pos) {
				position := p.Fset.Position(pos)
				file := position.Filename
				if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
					file = rel
				}
				res.Findings = append(res.Findings, Finding{Kind: kind, Position: fmt.Sprintf("%s:%d:%d", file, position.Line, position.Column), Func: name})
				res.Counts[kind]++
			}
			isParam := func(e ast.Expr) bool {
				id, ok := ast.Unparen(e).(*ast.Ident)
				return ok && params[p.TypesInfo.Uses[id]]
			}
			ifaceParam := func(e ast.Expr) bool {
				return isParam(e) && types.IsInterface(p.TypesInfo.TypeOf(e))
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.TypeSwitchStmt:
					if ta := switchOperand(x); ta != nil && ifaceParam(ta.X) {
						add(Switch, x.Pos())
					}
					ast.Inspect(x.Body, func(m ast.Node) bool { return inspectAsserts(m, ifaceParam, add) })
					return false
				case *ast.TypeAssertExpr:
					if x.Type != nil && ifaceParam(x.X) {
						add(Assert, x.Pos())
					}
				case *ast.CallExpr:
					call(p.TypesInfo, x, isParam, add)
				}
				return true
			})
			if len(res.Findings) > before {
				res.Flagged++
			}
		}
	}
	return res
}

// inspectAsserts records the assertions inside a type switch's body.
func inspectAsserts(n ast.Node, ifaceParam func(ast.Expr) bool, add func(string, token.Pos)) bool {
	if ta, ok := n.(*ast.TypeAssertExpr); ok && ta.Type != nil && ifaceParam(ta.X) {
		add(Assert, ta.Pos())
	}
	return true
}

func switchOperand(s *ast.TypeSwitchStmt) *ast.TypeAssertExpr {
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		ta, _ := a.Rhs[0].(*ast.TypeAssertExpr)
		return ta
	case *ast.ExprStmt:
		ta, _ := a.X.(*ast.TypeAssertExpr)
		return ta
	}
	return nil
}

// call records the reflection, tag reads and errors.As of a call.
func call(info *types.Info, c *ast.CallExpr, isParam func(ast.Expr) bool, add func(string, token.Pos)) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if fn, ok := info.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil {
		sig := fn.Type().(*types.Signature)
		switch {
		case sig.Recv() == nil && fn.Pkg().Path() == "reflect" && (fn.Name() == "TypeOf" || fn.Name() == "ValueOf"):
			if len(c.Args) == 1 && isParam(c.Args[0]) {
				add(Reflect, c.Pos())
			}
			return
		case sig.Recv() == nil && fn.Pkg().Path() == "errors" && fn.Name() == "As":
			add(ErrorsAs, c.Pos())
			return
		case sig.Recv() != nil && named(sig.Recv().Type(), "reflect", "StructTag") && (fn.Name() == "Get" || fn.Name() == "Lookup"):
			add(TagRead, c.Pos())
			return
		}
	}
	if t := info.TypeOf(sel.X); t != nil && isParam(sel.X) && (named(t, "reflect", "Type") || named(t, "reflect", "Value")) {
		add(Reflect, c.Pos())
	}
}

func named(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}
