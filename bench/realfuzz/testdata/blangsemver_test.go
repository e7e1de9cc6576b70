package semver_test

import (
	"testing"

	"github.com/blang/semver/v4"
)

// FuzzParse checks that a parsed version prints as a string that parses to
// an equal version, and that a version range parses without panicking.
func FuzzParse(f *testing.F) {
	f.Add("1.2.3")
	f.Fuzz(func(t *testing.T, s string) {
		if r, err := semver.ParseRange(s); err == nil {
			r(semver.Version{Major: 1})
		}
		v, err := semver.Parse(s)
		if err != nil {
			return
		}
		w, err := semver.Parse(v.String())
		if err != nil || !v.EQ(w) {
			t.Fatalf("%q: %v round-trips to %v, %v", s, v, w, err)
		}
	})
}
