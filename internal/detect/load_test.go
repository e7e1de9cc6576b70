package detect

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestPackageErrors checks that each load error is reported once: the go
// command's compile output repeats the type checker's errors, and a test
// variant repeats its package's.
func TestPackageErrors(t *testing.T) {
	goCmd := packages.Error{Pos: "", Msg: "# example.com/bad\n./bad.go:3:23: cannot use \"x\" as int value\n./bad.go:5:2: undefined: y", Kind: packages.ListError}
	typeErr := packages.Error{Pos: "/src/bad/bad.go:3:23", Msg: "cannot use \"x\" as int value", Kind: packages.TypeError}
	testErr := packages.Error{Pos: "/src/bad/bad_test.go:4:1", Msg: "missing return", Kind: packages.TypeError}
	reported := map[string]string{}
	tests := []struct {
		id   string
		errs []packages.Error
		want []string
	}{
		{"example.com/bad", []packages.Error{goCmd, typeErr}, []string{
			"./bad.go:3:23: cannot use \"x\" as int value",
			"./bad.go:5:2: undefined: y",
		}},
		{"example.com/bad [example.com/bad.test]", []packages.Error{goCmd, typeErr}, []string{
			"the same errors as example.com/bad",
		}},
		{"example.com/bad [example.com/bad.test]", []packages.Error{typeErr, testErr}, []string{
			"/src/bad/bad_test.go:4:1: missing return",
		}},
	}
	for _, tt := range tests {
		got := packageErrors(&packages.Package{ID: tt.id, Errors: tt.errs}, reported)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.id, got, tt.want)
		}
	}
}
