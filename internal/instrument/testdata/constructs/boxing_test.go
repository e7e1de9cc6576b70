package constructs

import "testing"

func TestBoxed(t *testing.T) {
	for _, c := range []struct {
		x    int
		s    string
		want int
	}{{0, "a", 17}, {5, "bb", 97}, {-3, "", -31}} {
		got, tag := Boxed(c.x, c.s)
		if got != c.want || tag != c.s {
			t.Errorf("Boxed(%d, %q) = %d, %q, want %d, %q", c.x, c.s, got, tag, c.want, c.s)
		}
	}
}
