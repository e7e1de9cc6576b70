package load

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// dump renders what Load found in a stable textual form.
func dump(pkgs []*Package, warnings []string) string {
	var b strings.Builder
	for _, w := range warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	for _, p := range pkgs {
		fmt.Fprintf(&b, "package %s (%s) test=%v xtest=%v\n", p.Path, p.Name, p.Test != nil, p.XTest != nil)
		for _, t := range p.Targets {
			fmt.Fprintf(&b, "  %s %s external=%v %s:%d\n", t.Kind, t.Name, t.External, filepath.Base(t.Pos.Filename), t.Pos.Line)
			variant := p.Variant(t)
			if variant == nil { // automatic targets of a package without tests
				variant = p.Plain
			}
			var params []string
			for _, v := range t.Params {
				params = append(params, v.Name()+" "+typeString(v.Type(), variant.Types))
			}
			if t.Variadic {
				params[len(params)-1] += " (variadic)"
			}
			fmt.Fprintf(&b, "    params: %s\n", strings.Join(params, ", "))
			if t.Layout != nil {
				SetBounds(t.Layout, 2)
				leaves, err := t.Layout.Leaves()
				var paths []string
				for _, l := range leaves {
					paths = append(paths, l.Path)
				}
				fmt.Fprintf(&b, "    leaves (max-len 2, depth %d): %s%v\n", t.Layout.Depth, strings.Join(paths, ", "), errText(err))
			}
			if t.Func != nil {
				fmt.Fprintf(&b, "    fuzz func: literal\n")
			}
			if t.FuncDecl != nil {
				fmt.Fprintf(&b, "    fuzz func: %s\n", t.FuncDecl.Name.Name)
			}
			for _, s := range t.Seeds {
				fmt.Fprintf(&b, "    seed: %#v\n", s)
			}
			if t.Err != nil {
				fmt.Fprintf(&b, "    error: %v (unsupported=%v)\n", t.Err, Unsupported(t.Err))
			}
		}
	}
	return b.String()
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name     string
		dir      string
		patterns []string
	}{
		{"mod", "testdata/mod", []string{"./..."}},
		{"single", "testdata/mod/a", nil},
		{"notests", "testdata/mod", []string{"./b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkgs, warnings, err := Load(Config{Dir: tt.dir}, tt.patterns...)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", tt.name+".golden"), dump(pkgs, warnings))
		})
	}
}

func TestLoadCompileErrors(t *testing.T) {
	_, _, err := Load(Config{Dir: "testdata/broken"}, "./...")
	if !IsCompileError(err) {
		t.Fatalf("Load: got %v, want compile errors", err)
	}
	checkGolden(t, filepath.Join("testdata", "broken.golden"), err.Error()+"\n")
}

func TestHasPrefix(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"Put", true}, {"PutX", true}, {"Put_x", true}, {"Put1", true}, {"Putter", false}, {"put", false}, {"Pu", false},
	} {
		if got := hasPrefix(tt.name, "Put"); got != tt.want {
			t.Errorf("hasPrefix(%q, Put) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	golden.Check(t, file, got, *update)
}

func errText(err error) string {
	if err != nil {
		return " error: " + err.Error()
	}
	return ""
}

// TestNotPUTWarnings loads a package whose test files declare functions
// and a method named like PUTs with other signatures: each gets one
// warning saying what the signature must be, and is no target.
func TestNotPUTWarnings(t *testing.T) {
	pkgs, warnings, err := Load(Config{Dir: filepath.Join("..", "..", "testdata", "hostile", "wrongput")}, ".")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"./w_test.go:6:6: PutX is not explored: its first parameter is not *testing.T; a parameterized unit test is a function func PutX(t *testing.T, inputs...)",
		"./w_test.go:9:6: PutY is not explored: its first parameter is not *testing.T; a parameterized unit test is a function func PutY(t *testing.T, inputs...)",
		"./w_test.go:18:14: PutZ is not explored: it is a method; a parameterized unit test is a function func PutZ(t *testing.T, inputs...)",
		"./w_external_test.go:6:6: PutW is not explored: its first parameter is not *testing.T; a parameterized unit test is a function func PutW(t *testing.T, inputs...)",
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
	var names []string
	for _, p := range pkgs {
		for _, tg := range p.Targets {
			names = append(names, tg.Name)
		}
	}
	if strings.Join(names, " ") != "PutOK" {
		t.Errorf("targets %q, want PutOK alone", names)
	}
}
