package glob_test

import (
	"strings"
	"testing"

	"github.com/ryanuber/go-glob"
)

// FuzzGlob checks that a pattern without wildcards matches only itself and
// that "*" around any pattern still matches what it matched.
func FuzzGlob(f *testing.F) {
	f.Add("a*b", "axxb")
	f.Fuzz(func(t *testing.T, pattern, subj string) {
		m := glob.Glob(pattern, subj)
		if !strings.Contains(pattern, "*") && m != (pattern == subj) {
			t.Fatalf("Glob(%q, %q) = %v", pattern, subj, m)
		}
		if m && !glob.Glob("*"+pattern+"*", subj) {
			t.Fatalf("Glob(*%q*, %q) is false", pattern, subj)
		}
	})
}
