package semver_test

import (
	"testing"

	"golang.org/x/mod/semver"
)

// FuzzSemver checks that a valid version compares equal to its canonical
// form and that the parts of the canonical form are consistent.
func FuzzSemver(f *testing.F) {
	f.Add("v1.2.3")
	f.Fuzz(func(t *testing.T, v string) {
		if !semver.IsValid(v) {
			if semver.Canonical(v) != "" {
				t.Fatalf("Canonical(%q) of an invalid version is not empty", v)
			}
			return
		}
		c := semver.Canonical(v)
		if semver.Compare(v, c) != 0 {
			t.Fatalf("Compare(%q, %q) != 0", v, c)
		}
		if semver.Major(c) != semver.Major(v) || semver.Prerelease(c) != semver.Prerelease(v) {
			t.Fatalf("parts of %q and %q differ", v, c)
		}
	})
}
