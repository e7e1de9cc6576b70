package isolate

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"os/exec"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Effects says which functions may reach the environment: the
// side-effecting standard APIs (StdEffect) and the functions of other
// packages whose static call graph reaches one. Functions are keyed by
// FullName of their generic origin ("pkg.F", "(*pkg.T).M").
type Effects struct {
	// reach maps each effectful function of the analysed packages to the
	// standard API it reaches ("os.Open").
	reach map[string]string
	// writes maps each analysed function to the indices of its
	// parameters (the receiver not counted) that it may write through.
	writes map[string][]int
	// analysed are the packages whose syntax the analysis saw.
	analysed map[string]bool
	// std holds the standard library's packages among the dependencies.
	std map[string]bool
}

// LoadEffects loads the packages outside the standard library that the
// given packages import, directly or not, with their syntax, and runs the
// effect analysis on them. dir and env are those of the go command.
func LoadEffects(dir string, env []string, buildFlags []string, roots []*packages.Package) (*Effects, error) {
	fx := &Effects{reach: map[string]string{}, writes: map[string][]int{}, analysed: map[string]bool{}, std: map[string]bool{}}
	if len(roots) == 0 {
		return fx, nil
	}
	if env == nil {
		env = os.Environ()
	}
	// Which dependencies are the standard library's: go list knows (a
	// module path without a dot, such as a benchmark's, looks alike).
	args := append([]string{"list", "-e", "-deps", "-test", "-f", "{{.ImportPath}} {{.Standard}}"}, buildFlags...)
	seen := map[string]bool{}
	for _, r := range roots {
		if !seen[r.PkgPath] {
			seen[r.PkgPath] = true
			args = append(args, r.PkgPath)
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list for the effect analysis: %w", err)
	}
	var paths []string
	for _, line := range strings.Split(string(out), "\n") {
		path, std, ok := strings.Cut(line, " ")
		if !ok || strings.Contains(path, " ") || strings.HasSuffix(path, ".test") || strings.HasSuffix(path, "]") {
			continue
		}
		if std == "true" {
			fx.std[path] = true
		} else if !seen[path] && !strings.HasSuffix(path, "_test") {
			seen[path] = true
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return fx, nil
	}
	sort.Strings(paths)
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Dir:        dir,
		Env:        env,
		BuildFlags: buildFlags,
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, fmt.Errorf("loading the dependencies for the effect analysis: %w", err)
	}
	fx.analyse(pkgs)
	return fx, nil
}

// isStd reports whether path is a package of the standard library: one
// go list said is, or without go list's word, one whose first element
// has no dot.
func (fx *Effects) isStd(path string) bool {
	if fx != nil && len(fx.std) > 0 {
		return fx.std[path]
	}
	return isStd(path)
}

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && path != "C"
}

// key is the name functions are known by: the full name of the generic
// origin.
func key(fn *types.Func) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.FullName()
}

// analyse computes reach over pkgs: a function reaches the environment if
// its body (function literals included) uses a side-effecting standard
// API or a function of pkgs that does, to a fixed point. Uses count,
// not only calls: a function passed as a value may be called. Dynamic
// calls (func values, interface methods) in dependencies are followed
// only for the interfaces of side-effecting standard packages (a
// net.Conn's Read): the analysis is may-reach for static calls only.
func (fx *Effects) analyse(pkgs []*packages.Package) {
	edges := map[string][]string{}
	for _, p := range pkgs {
		fx.analysed[p.PkgPath] = true
		if p.TypesInfo == nil {
			continue
		}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
				if !ok {
					continue
				}
				k := key(fn)
				fx.writes[k] = writtenParams(fd, p.TypesInfo)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					id, ok := n.(*ast.Ident)
					if !ok {
						return true
					}
					callee, ok := p.TypesInfo.Uses[id].(*types.Func)
					if !ok || callee.Pkg() == nil {
						return true
					}
					if fx.isStd(callee.Pkg().Path()) {
						if StdEffect(callee) && fx.reach[k] == "" {
							fx.reach[k] = shortName(callee)
						}
						return true
					}
					edges[k] = append(edges[k], key(callee))
					return true
				})
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for caller, callees := range edges {
			if fx.reach[caller] != "" {
				continue
			}
			for _, c := range callees {
				if r := fx.reach[c]; r != "" {
					fx.reach[caller] = r
					changed = true
					break
				}
			}
		}
	}
}

// Reaches returns the side-effecting standard API that fn may reach
// ("" if none is known): fn's own if it is one, else the analysis's.
func (fx *Effects) Reaches(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	if fx.isStd(fn.Pkg().Path()) {
		if StdEffect(fn) {
			return shortName(fn)
		}
		return ""
	}
	if fx == nil {
		return ""
	}
	return fx.reach[key(fn)]
}

// Writes returns the indices of fn's parameters (the receiver not
// counted) through which it may write, and whether the analysis knows:
// for functions without syntax (the standard library), every pointer
// parameter.
func (fx *Effects) Writes(fn *types.Func) ([]int, bool) {
	if fx == nil {
		return nil, false
	}
	w, ok := fx.writes[key(fn)]
	return w, ok
}

// shortName is fn as a reader knows it: "os.Open", "(*os.File).Read",
// "bankdb.RunQuery".
func shortName(fn *types.Func) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return strings.ReplaceAll(fn.FullName(), fn.Pkg().Path()+".", fn.Pkg().Name()+".")
}

// writtenParams returns the indices of fd's parameters of pointer type
// that its body may write through (the parameter analysis of "Generating Unit Isolation Environment
// Using Symbolic Execution",
// syntactic and conservative): a parameter is written if an expression
// rooted at it (p, p.F, *p, p.F[i]) is assigned or incremented, has its
// address taken, receives a method call, is passed to a function or
// stored elsewhere as a pointer, slice, map or interface.
func writtenParams(fd *ast.FuncDecl, info *types.Info) []int {
	params := map[types.Object]int{}
	i := 0
	for _, field := range fd.Type.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, n := range field.Names {
			if obj := info.Defs[n]; obj != nil {
				if _, ptr := obj.Type().Underlying().(*types.Pointer); ptr {
					params[obj] = i
				}
			}
			i++
		}
	}
	if len(params) == 0 {
		return nil
	}
	written := map[int]bool{}
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		idx, ok := params[info.Uses[id]]
		if !ok {
			return true
		}
		if writesThrough(stack, info) {
			written[idx] = true
		}
		return true
	})
	var out []int
	for i := range written {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// writesThrough reports whether the use of a pointer parameter at the
// top of stack may write through it.
func writesThrough(stack []ast.Node, info *types.Info) bool {
	j := len(stack) - 1
	e := stack[j].(ast.Expr)
	// Walk up the selections, dereferences and indexings rooted at it.
	for j > 0 {
		switch p := stack[j-1].(type) {
		case *ast.SelectorExpr:
			if p.X != e {
				return false
			}
			if s := info.Selections[p]; s != nil && s.Kind() == types.MethodVal {
				return true // a method may change what it is called on
			}
		case *ast.StarExpr:
		case *ast.ParenExpr:
		case *ast.IndexExpr:
			if p.X != e {
				return false // used as an index: a read
			}
		default:
			goto top
		}
		j--
		e = stack[j].(ast.Expr)
	}
top:
	if j == 0 {
		return false
	}
	switch p := stack[j-1].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == e {
				return true
			}
		}
		return refType(info.TypeOf(e)) // aliased
	case *ast.IncDecStmt:
		return true
	case *ast.UnaryExpr:
		return p.Op.String() == "&"
	case *ast.CallExpr:
		if p.Fun == e {
			return false
		}
		return refType(info.TypeOf(e))
	case *ast.ValueSpec, *ast.ReturnStmt, *ast.CompositeLit, *ast.KeyValueExpr, *ast.SendStmt:
		return refType(info.TypeOf(e))
	case *ast.RangeStmt:
		return true
	}
	return false
}

// refType reports whether a value of type t can be used to write what it
// came from: pointers, slices, maps, interfaces, funcs, channels.
func refType(t types.Type) bool {
	if t == nil {
		return true
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Signature, *types.Chan:
		return true
	}
	return false
}
