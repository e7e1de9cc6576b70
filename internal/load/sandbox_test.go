package load

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/golden"
	"github.com/dowse-go/dowse/rt"
)

// sandboxErrorsSrc reads errors of os.ReadFile in the ways file-handling
// code does.
const sandboxErrorsSrc = `package p

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

var ErrShort = errors.New("short")

func Missing(path string) bool {
	_, err := os.ReadFile(path)
	return errors.Is(err, fs.ErrNotExist)
}

func Op(path string) string {
	_, err := os.ReadFile(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op
	}
	return ""
}

func End(path string) string {
	_, err := os.ReadFile(path)
	switch err {
	case io.EOF:
		return "end"
	case ErrShort:
		return "short"
	}
	return ""
}

func Plain(path string) error {
	_, err := os.ReadFile(path)
	return err
}
`

// TestSandboxErrorChoices checks the alternatives of the error result of
// an isolated os.ReadFile, per target: the sentinels the target compares
// errors with (switch cases included), wrapped when it calls errors.Is,
// the types it asks errors.As for (never a typed nil), errors.New; a
// plain error where the target only passes it on.
func TestSandboxErrorChoices(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", sandboxErrorsSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	facts := newIfaceFacts(&packages.Package{Types: pkg, TypesInfo: info, Syntax: []*ast.File{f}}, fset, true, 0, nil)
	osPkg, err := importer.Default().Import("os")
	if err != nil {
		t.Fatal(err)
	}
	stub := osPkg.Scope().Lookup("ReadFile").Type().(*types.Signature)
	var b strings.Builder
	for _, name := range []string{"Missing", "Op", "End", "Plain"} {
		fn := pkg.Scope().Lookup(name)
		tg := &Target{Name: name, Layout: &rt.Layout{}, Pkg: pkg, facts: facts, factRoots: []types.Object{fn}}
		if err := AddSandbox(tg, SandboxParam{Key: name + ".ReadFile.1", Pkg: pkg, Stub: stub}); err != nil {
			t.Fatal(err)
		}
		l := tg.Layout
		res := l.Shapes[l.Shapes[l.Params[0].Shape].Outs[1]]
		fmt.Fprintf(&b, "%s: %s\n", name, res.Kind)
		for _, o := range res.Outs {
			s := l.Shapes[o]
			fmt.Fprintf(&b, "\t%s %s", s.Kind, s.Type)
			if s.Wrap {
				b.WriteString(" wrapped")
			}
			if s.NonNil {
				b.WriteString(" non-nil")
			}
			b.WriteString("\n")
		}
	}
	golden.Check(t, filepath.Join("testdata", "sandboxerrors.golden"), b.String(), *update)
}
