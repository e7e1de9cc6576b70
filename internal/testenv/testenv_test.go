package testenv

import "testing"

func TestInCI(t *testing.T) {
	for _, c := range []struct {
		env  string
		want bool
	}{{"true", true}, {"1", true}, {"TRUE", true}, {"", false}, {"false", false}, {"yes-please", false}} {
		t.Setenv("CI", c.env)
		if got := InCI(); got != c.want {
			t.Errorf("CI=%q: InCI() = %v, want %v", c.env, got, c.want)
		}
	}
}

// recorder is a testing.TB that records whether the test was failed or
// skipped.
type recorder struct {
	testing.TB
	failed, skipped bool
}

func (r *recorder) Helper()               { r.TB.Helper() }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Skipf(string, ...any)  { r.skipped = true }

func TestMissing(t *testing.T) {
	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	Missing(r, "no %s", "bench")
	if !r.failed || r.skipped {
		t.Errorf("under CI: failed %v, skipped %v; want a failure", r.failed, r.skipped)
	}
	t.Setenv("CI", "")
	r = &recorder{TB: t}
	Missing(r, "no %s", "bench")
	if r.failed || !r.skipped {
		t.Errorf("outside CI: failed %v, skipped %v; want a skip", r.failed, r.skipped)
	}
}
