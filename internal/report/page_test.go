package report

import "testing"

// TestShorten checks how verdicts are cut to fit a package's table.
func TestShorten(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"exhaustive", "exhaustive"},
		{"stopped: max\nmore", "stopped: max…"},
		{"not explored: a long reason", "not explored: a…"},
		{"ünïcödé ünïcödé ü", "ünïcödé ünïcödé…"},
		{"sixteen runes ok", "sixteen runes ok"},
	} {
		if got := shorten(c.in, 16); got != c.want {
			t.Errorf("shorten(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
