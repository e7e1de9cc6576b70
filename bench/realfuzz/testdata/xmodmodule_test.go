package module_test

import (
	"testing"

	"golang.org/x/mod/module"
)

// FuzzCheckPath checks that a valid module path escapes and unescapes to
// itself and is a valid import path.
func FuzzCheckPath(f *testing.F) {
	f.Add("example.com/m")
	f.Fuzz(func(t *testing.T, p string) {
		if err := module.CheckPath(p); err != nil {
			return
		}
		if err := module.CheckImportPath(p); err != nil {
			t.Fatalf("module path %q is not an import path: %v", p, err)
		}
		e, err := module.EscapePath(p)
		if err != nil {
			t.Fatalf("EscapePath(%q): %v", p, err)
		}
		u, err := module.UnescapePath(e)
		if err != nil || u != p {
			t.Fatalf("UnescapePath(%q) = %q, %v", e, u, err)
		}
	})
}
