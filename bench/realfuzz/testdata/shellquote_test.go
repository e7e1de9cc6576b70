package shellquote_test

import (
	"reflect"
	"testing"

	"github.com/kballard/go-shellquote"
)

// FuzzSplit checks that joining the words of a split line and splitting
// again gives the same words.
func FuzzSplit(f *testing.F) {
	f.Add(`a "b c" d`)
	f.Fuzz(func(t *testing.T, s string) {
		words, err := shellquote.Split(s)
		if err != nil {
			return
		}
		again, err := shellquote.Split(shellquote.Join(words...))
		if err != nil {
			t.Fatalf("Split(Join(%q)): %v", words, err)
		}
		if len(words) != 0 && !reflect.DeepEqual(words, again) {
			t.Fatalf("Split(Join(%q)) = %q", words, again)
		}
	})
}
