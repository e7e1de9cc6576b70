package emit

import (
	"encoding/json"
	"fmt"
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

	"github.com/dowse-go/dowse/rt"
)

// The test helpers type-check small packages from source and build Files
// the way the coordinator does: targets' parameters from go/types, leaves
// by the flattening rule documented on rt.Leaf.

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

// flatten lays out the leaves of a parameter list as documented on rt.Leaf.
func flatten(params []*types.Var, maxLen int) []rt.Leaf {
	var out []rt.Leaf
	for _, p := range params {
		flattenType(p.Type(), p.Name(), maxLen, &out)
	}
	return out
}

func flattenType(t types.Type, path string, maxLen int, out *[]rt.Leaf) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		k := map[types.BasicKind]rt.Kind{
			types.Bool: rt.KBool, types.Int: rt.KInt, types.Int8: rt.KInt8, types.Int16: rt.KInt16,
			types.Int32: rt.KInt32, types.Int64: rt.KInt64, types.Uint: rt.KUint, types.Uint8: rt.KUint8,
			types.Uint16: rt.KUint16, types.Uint32: rt.KUint32, types.Uint64: rt.KUint64,
			types.Uintptr: rt.KUintptr, types.String: rt.KString,
		}[u.Kind()]
		l := rt.Leaf{Path: path, K: k}
		if k == rt.KString {
			l.Max = maxLen
		}
		*out = append(*out, l)
	case *types.Array:
		for i := int64(0); i < u.Len(); i++ {
			flattenType(u.Elem(), fmt.Sprintf("%s[%d]", path, i), maxLen, out)
		}
	case *types.Slice:
		*out = append(*out, rt.Leaf{Path: "len(" + path + ")", K: rt.KInt, IsLen: true, Max: maxLen})
		for i := 0; i < maxLen; i++ {
			flattenType(u.Elem(), fmt.Sprintf("%s[%d]", path, i), maxLen, out)
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Name() != "_" {
				flattenType(f.Type(), path+"."+f.Name(), maxLen, out)
			}
		}
	default:
		panic("flatten: unsupported type " + t.String())
	}
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
