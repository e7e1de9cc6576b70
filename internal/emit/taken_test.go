package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"
)

// Generated function names avoid what the package's files declare (test
// files of both test packages included), skip the names other targets'
// functions get, and ignore dowse's own generated files.
func TestFreeNames(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"p.go":            "package p\n\nfunc PutMax2() {}\n\ntype Store struct{}\n\nfunc (*Store) Get() {}\n",
		"hand_test.go":    "package p\n\nimport \"testing\"\n\nfunc TestDowsePutMax(t *testing.T) {}\n\nfunc TestDowsePutMax3(t *testing.T) {}\n\nvar TestDowseStore_GetFailures = 1\n",
		"x_test.go":       "package p_test\n\ntype TestDowsePutMin struct{}\n",
		"p_dowse_test.go": Header + "\n\npackage p\n\nfunc TestDowsePutOld() {}\n",
		"broken_other.go": "package p\n\nfunc TestDowsePutBroken( {\n",
	}
	for n, src := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", files["p.go"], 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	declared, err := declaredNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	nm := namer{taken: declared, scope: pkg.Scope()}
	for _, tt := range []struct{ base, want string }{
		{"TestDowsePutMax", "TestDowsePutMax4"}, // 2 is PutMax2's, 3 is declared
		{"TestDowsePutMaxFailures", "TestDowsePutMaxFailures"},
		{"TestDowsePutMin", "TestDowsePutMin2"}, // declared by the external test package
		{"TestDowsePutOld", "TestDowsePutOld"},  // only in dowse's generated file
		{"TestDowsePutBroken", "TestDowsePutBroken"},
		{"TestDowseStore_GetFailures", "TestDowseStore_GetFailures2"},
	} {
		if got := nm.free(tt.base); got != tt.want {
			t.Errorf("free(%s) = %s, want %s", tt.base, got, tt.want)
		}
	}
	for _, tt := range []struct {
		name   string
		target string
		want   bool
	}{
		{"TestDowsePutMax", "PutMax", false}, // declared by hand
		{"TestDowsePutMax4", "PutMax", true},
		{"TestDowsePutMax2", "PutMax", false}, // PutMax2's
		{"TestDowsePutMax2", "PutMax2", true},
		{"TestDowsePutMaxFailures2", "PutMax", true},
		{"TestDowsePutMax02", "PutMax", false},
		{"TestDowseStore_Get", "Store.Get", true},
	} {
		if got := nm.ofTarget(tt.name, baseNames(tt.target)); got != tt.want {
			t.Errorf("ofTarget(%s, %s) = %v, want %v", tt.name, tt.target, got, tt.want)
		}
	}
}
