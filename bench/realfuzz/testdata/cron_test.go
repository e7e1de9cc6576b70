package cron_test

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

// FuzzParseStandard checks that a parsed schedule's next activation is
// after the time it is asked from.
func FuzzParseStandard(f *testing.F) {
	f.Add("*/5 * * * *")
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := cron.ParseStandard(spec)
		if err != nil {
			return
		}
		if next := s.Next(from); !next.IsZero() && !next.After(from) {
			t.Fatalf("%q: next %v is not after %v", spec, next, from)
		}
	})
}
