package output

import (
	"strings"
	"testing"
)

func TestShortInput(t *testing.T) {
	long := strings.Repeat("ab", 40)
	for _, tt := range []struct{ in, want string }{
		{`s="abc", n=3`, `s="abc", n=3`},
		{`s="` + long + `"`, `s="ababababababababababababababababab` + "a" + `…"`},
		{`s="` + strings.Repeat(`\n`, 30) + `", n=1`, `s="` + strings.Repeat(`\n`, 17) + `…", n=1`},
		{`s="` + strings.Repeat("é", 30) + `"`, `s="` + strings.Repeat("é", 17) + `…"`},
		{`a="x, y", b="` + long + `", c=2`, `a="x, y", b="ababababababababababababababababab` + "a" + `…", c=2`},
		{strings.Repeat("x=1, ", 40) + "y=2", strings.Repeat("x=1, ", 31) + "x=1, …"},
		{`b="` + strings.Repeat(`\x00`, 20) + `"`, `b="` + strings.Repeat(`\x00`, 8) + `…"`},
	} {
		if got := shortInput(tt.in); got != tt.want {
			t.Errorf("shortInput(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}
