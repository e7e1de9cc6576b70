package emit

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/rt"
)

// The test helpers type-check small packages from source and build Files
// the way the coordinator does: targets' parameters from go/types, leaves
// from the layout load builds.

var (
	stdFset     = token.NewFileSet()
	stdImporter = importer.ForCompiler(stdFset, "source", nil)
)

// universe type-checks packages from directories and imports them by path.
type universe struct {
	fset *token.FileSet
	pkgs map[string]*types.Package
	ast  map[string][]*ast.File
	info map[string]*types.Info
}

func newUniverse() *universe {
	return &universe{fset: token.NewFileSet(), pkgs: map[string]*types.Package{}, ast: map[string][]*ast.File{}, info: map[string]*types.Info{}}
}

func (u *universe) Import(path string) (*types.Package, error) {
	if p, ok := u.pkgs[path]; ok {
		return p, nil
	}
	return stdImporter.Import(path)
}

// load type-checks the Go files of dir as the package with the given
// path; files of an external test package "<name>_test" are checked as
// path+"_test" after it.
func (u *universe) load(t *testing.T, dir, path string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	byPkg := map[string][]*ast.File{}
	var names []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(u.fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		n := f.Name.Name
		if byPkg[n] == nil {
			names = append(names, n)
		}
		byPkg[n] = append(byPkg[n], f)
	}
	sort.Slice(names, func(i, j int) bool {
		return !strings.HasSuffix(names[i], "_test") && strings.HasSuffix(names[j], "_test")
	})
	for _, n := range names {
		p := path
		if strings.HasSuffix(n, "_test") && len(names) > 1 {
			p += "_test"
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: u}
		pkg, err := conf.Check(p, u.fset, byPkg[n], info)
		if err != nil {
			t.Fatalf("type-checking %s: %v", p, err)
		}
		u.pkgs[p], u.ast[p], u.info[p] = pkg, byPkg[n], info
	}
}

// params returns the parameters of target name in package path after the
// *testing.T, and whether it is variadic; for a fuzz target those of the
// function passed to f.Fuzz.
func (u *universe) params(t *testing.T, path, name string) ([]*types.Var, bool, bool) {
	t.Helper()
	pkg := u.pkgs[path]
	fn, ok := pkg.Scope().Lookup(name).(*types.Func)
	if !ok {
		t.Fatalf("%s: no func %s", path, name)
	}
	sig := fn.Type().(*types.Signature)
	fuzz := strings.HasPrefix(name, "Fuzz")
	if fuzz {
		sig = nil
		for _, f := range u.ast[path] {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || sig != nil {
					return sig == nil
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Fuzz" && len(call.Args) == 1 {
					if s, ok := u.info[path].Types[call.Args[0]].Type.(*types.Signature); ok && enclosing(f, call) == name {
						sig = s
					}
				}
				return true
			})
		}
		if sig == nil {
			t.Fatalf("%s: no f.Fuzz call", name)
		}
	}
	var ps []*types.Var
	for i := 1; i < sig.Params().Len(); i++ {
		ps = append(ps, sig.Params().At(i))
	}
	return ps, sig.Variadic(), fuzz
}

// enclosing returns the name of the top-level function around n.
func enclosing(f *ast.File, n ast.Node) string {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= n.Pos() && n.End() <= fd.End() {
			return fd.Name.Name
		}
	}
	return ""
}

// layout builds the input model of a parameter list as the coordinator
// does for a target of the first of pkgs, with length bound maxLen; if
// the coordinator would refuse it, as if the target were in the next one
// (so that emit's own checks are reached).
func layout(t *testing.T, params []*types.Var, maxLen int, pkgs ...*types.Package) *rt.Layout {
	t.Helper()
	var err error
	for _, pkg := range pkgs {
		var l *rt.Layout
		if l, err = load.LayoutOf("target", params, pkg); err == nil {
			load.SetBounds(l, maxLen)
			return l
		}
	}
	t.Fatal(err)
	return nil
}

// underTest is the package an external test package tests (pkg itself
// for others).
func (u *universe) underTest(pkg *types.Package) *types.Package {
	if p, ok := u.pkgs[strings.TrimSuffix(pkg.Path(), "_test")]; ok {
		return p
	}
	return pkg
}

// leavesOf flattens l.
func leavesOf(t *testing.T, l *rt.Layout) []rt.Leaf {
	t.Helper()
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	return leaves
}

// values converts JSON scalars (numbers, strings, bools) to the input
// vector of leaves.
func values(t *testing.T, leaves []rt.Leaf, in []any) []rt.Value {
	t.Helper()
	if len(in) != len(leaves) {
		t.Fatalf("%d inputs for %d leaves %v", len(in), len(leaves), leaves)
	}
	out := make([]rt.Value, len(in))
	for i, x := range in {
		switch x := x.(type) {
		case string:
			out[i].Str = x
		case bool:
			if x {
				out[i].Bits = 1
			}
		case json.Number:
			n, ok := new(big.Int).SetString(x.String(), 0)
			if !ok {
				t.Fatalf("bad number %s", x)
			}
			if n.Sign() < 0 {
				out[i].Bits = uint64(n.Int64()) & mask(leaves[i].K.Bits())
			} else {
				out[i].Bits = n.Uint64()
			}
		default:
			t.Fatalf("input %d: unsupported %T", i, x)
		}
	}
	return out
}
