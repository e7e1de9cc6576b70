package shlex_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/shlex"
)

// FuzzSplit checks that a line without quotes, escapes or comments splits
// into its fields.
func FuzzSplit(f *testing.F) {
	f.Add(`a "b c" d`)
	f.Fuzz(func(t *testing.T, s string) {
		words, err := shlex.Split(s)
		if err != nil || strings.ContainsAny(s, "\"'\\#") {
			return
		}
		fields := strings.Fields(s)
		if len(words) != len(fields) || (len(fields) > 0 && !reflect.DeepEqual(words, fields)) {
			t.Fatalf("Split(%q) = %q, want %q", s, words, fields)
		}
	})
}
