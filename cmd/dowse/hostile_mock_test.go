package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"strings"
	"testing"
)

// The names of generated declarations are unique in the package: a mock
// of Source has a result type named after Source and its method Reader,
// the name of the mock of Source and io.Reader; the package declares the
// recorder's helpers' names in a test file and a result type's name in a
// file only some builds compile. The worker builds, and the generated
// tests build and pass, with and without that file.
func TestHostileMockNames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "mockname"), "-max-time", "20s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
	}
	src := readTree(t, dir)["dowse_mocks_test.go"]
	f, err := parser.ParseFile(token.NewFileSet(), "dowse_mocks_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("the mock file does not parse: %v\n%s", err, src)
	}
	seen := map[string]bool{}
	for _, d := range f.Decls {
		var name string
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				continue
			}
			name = d.Name.Name
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					name = ts.Name.Name
				}
			}
		}
		if seen[name] {
			t.Errorf("the mock file declares %s twice:\n%s", name, src)
		}
		seen[name] = true
	}
	for _, n := range []string{"dowseSource", "dowseSourceReader", "dowseRecordCall1", "dowseCallsOf1", "dowseFormatArg1"} {
		if !seen[n] {
			t.Errorf("the mock file declares no %s:\n%s", n, src)
		}
	}
	for _, n := range []string{"dowseRecordCall", "dowseCallsOf", "dowseFormatArg", "dowseSourceReaderRead"} {
		if seen[n] {
			t.Errorf("the mock file declares %s, which the package declares:\n%s", n, src)
		}
	}
	generatedTestsPass(t, dir)
	cmd := exec.Command("go", "vet", "-tags", "extra", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("with the tagged file, the generated tests do not build: %v\n%s", err, out)
	}
	if strings.Contains(stdout, " 0 exhaustive") {
		t.Errorf("First was not explored to the end:\n%s", stdout)
	}
}
