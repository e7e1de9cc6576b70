package isolate

import (
	"flag"
	"fmt"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestAnalyze plans the isolation of the fixture's units
// (testdata/isolate): what reaches a file, the clock or the network
// through package store is isolated, the pure calc.Clamp and
// strings.ToUpper stay real, and the parameter analysis finds that Fill
// writes its *Quote and Describe does not. The sandbox file is part of
// the golden output.
func TestAnalyze(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "isolate"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
	}{
		{"app", Config{}},
		{"store", Config{}},
		{"app", Config{Real: []string{"example.com/isolate/store.Hour"}, Isolate: []string{"example.com/isolate/calc"}}},
		{"app", Config{Off: true}},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprintf("%d_%s", i, tc.name), func(t *testing.T) {
			cfg := &packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports, Dir: dir, Env: []string{"GOWORK=off", "GOFLAGS=-mod=mod"}}
			cfg.Env = append(envWithout("GOWORK", "GOFLAGS"), cfg.Env...)
			pkgs, err := packages.Load(cfg, "./"+tc.name)
			if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
				t.Fatalf("load: %v %v", err, pkgs)
			}
			p := pkgs[0]
			fx, err := LoadEffects(dir, nil, nil, pkgs)
			if err != nil {
				t.Fatal(err)
			}
			u, err := Analyze(p, fx, tc.cfg, func(path string) bool { return path == p.PkgPath })
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if u == nil {
				b.WriteString("nothing isolated\n")
			} else {
				fmt.Fprintf(&b, "members read: %d\n", u.Members)
				for _, e := range u.Externals {
					fmt.Fprintf(&b, "external %s: %d calls, isolated %v (%s)\n", e.Name, e.Calls, e.Isolated, e.Why)
				}
				for _, s := range u.Sites {
					fmt.Fprintf(&b, "site %s at line %d: %s writes %v\n", s.Key, s.Pos.Line, types.TypeString(s.Stub, nil), s.Writes)
				}
				fmt.Fprintf(&b, "--- %s\n%s", filepath.Base(u.File), u.Src)
			}
			golden.Check(t, filepath.Join("testdata", fmt.Sprintf("%d_%s.golden", i, tc.name)), b.String(), *update)
		})
	}
}

func TestStdEffect(t *testing.T) {
	pkg := func(path string) *types.Package { return types.NewPackage(path, path[strings.LastIndex(path, "/")+1:]) }
	fn := func(p, name string) *types.Func {
		return types.NewFunc(0, pkg(p), name, types.NewSignatureType(nil, nil, nil, nil, nil, false))
	}
	method := func(p, typ, name string) *types.Func {
		pk := pkg(p)
		named := types.NewNamed(types.NewTypeName(0, pk, typ, nil), types.NewStruct(nil, nil), nil)
		recv := types.NewVar(0, pk, "r", types.NewPointer(named))
		return types.NewFunc(0, pk, name, types.NewSignatureType(recv, nil, nil, nil, nil, false))
	}
	tests := []struct {
		fn   *types.Func
		want bool
	}{
		{fn("os", "ReadFile"), true},
		{fn("os", "Getenv"), true},
		{fn("os", "IsNotExist"), false},
		{method("os", "File", "Read"), true},
		{method("os", "PathError", "Error"), false},
		{fn("time", "Now"), true},
		{fn("time", "Date"), false},
		{method("time", "Time", "Hour"), false},
		{method("time", "Timer", "Stop"), true},
		{fn("net", "Dial"), true},
		{fn("net", "ParseIP"), false},
		{method("net", "IP", "String"), false},
		{fn("net/url", "Parse"), false},
		{fn("math/rand", "Intn"), true},
		{fn("math/rand", "New"), false},
		{method("math/rand", "Rand", "Intn"), false},
		{fn("crypto/rand", "Read"), true},
		{fn("database/sql", "Open"), true},
		{fn("strings", "ToUpper"), false},
		{fn("strconv", "Atoi"), false},
		{fn("path/filepath", "Join"), false},
		{fn("path/filepath", "Glob"), true},
	}
	for _, tc := range tests {
		if got := StdEffect(tc.fn); got != tc.want {
			t.Errorf("StdEffect(%s) = %v, want %v", tc.fn.FullName(), got, tc.want)
		}
	}
}
