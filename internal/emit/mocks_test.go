package emit

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/mock"
)

// The mock file written ahead of the test files declares every mock type
// offered, so that a stop between files leaves tests that compile; the
// write after them keeps only those a generated file refers to.
func TestWriteMocksAll(t *testing.T) {
	const src = `package shop

type Store interface{ Get(k string) (int, error) }
type Clock interface{ Now() int64 }
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "shop.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/shop", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mocks []*mock.Type
	for _, name := range []string{"Store", "Clock"} {
		iface := pkg.Scope().Lookup(name).Type().Underlying().(*types.Interface)
		var methods []*types.Func
		for i := range iface.NumMethods() {
			methods = append(methods, iface.Method(i))
		}
		mocks = append(mocks, mock.New(pkg, "dowseMock"+name, []string{name}, methods, true, mock.Struct, ""))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, MockFileName)
	declared := func() (store, clock bool) {
		data, err := os.ReadFile(path)
		if err != nil {
			return false, false
		}
		return strings.Contains(string(data), "type dowseMockStore "), strings.Contains(string(data), "type dowseMockClock ")
	}

	if _, err := WriteMocks(MockFile{Pkg: pkg, Dir: dir, Mocks: mocks, All: true}); err != nil {
		t.Fatal(err)
	}
	if store, clock := declared(); !store || !clock {
		t.Fatalf("ahead of the test files: Store declared %v, Clock %v; want both", store, clock)
	}
	// A generated test file that uses one of them.
	test := Header + "\n\npackage shop\n\nvar _ Store = &dowseMockStore{}\n"
	if err := os.WriteFile(filepath.Join(dir, "shop_dowse_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteMocks(MockFile{Pkg: pkg, Dir: dir, Mocks: mocks}); err != nil {
		t.Fatal(err)
	}
	if store, clock := declared(); !store || clock {
		t.Fatalf("after the test files: Store declared %v, Clock %v; want Store only", store, clock)
	}
}
