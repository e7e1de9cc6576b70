package units_test

import (
	"testing"

	"github.com/docker/go-units"
)

// FuzzParseSize checks that sizes in binary units are at least the same
// sizes in decimal units.
func FuzzParseSize(f *testing.F) {
	f.Add("32kb")
	f.Fuzz(func(t *testing.T, s string) {
		dec, err := units.FromHumanSize(s)
		if err != nil {
			return
		}
		bin, err := units.RAMInBytes(s)
		if err != nil {
			t.Fatalf("RAMInBytes(%q): %v, FromHumanSize: %d", s, err, dec)
		}
		if bin < dec {
			t.Fatalf("%q: RAMInBytes %d < FromHumanSize %d", s, bin, dec)
		}
	})
}
