package isotest

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		args            []string
		flags, patterns []string
	}{
		{nil, nil, nil},
		{[]string{"-cover", "./..."}, []string{"-cover"}, []string{"./..."}},
		{[]string{"-run", "TestX", "-count=1", "./a", "./b"}, []string{"-run", "TestX", "-count=1"}, []string{"./a", "./b"}},
		{[]string{"-coverprofile", "c.out", "."}, []string{"-coverprofile", "c.out"}, []string{"."}},
		{[]string{"-v", "-json", "pkg"}, []string{"-v", "-json"}, []string{"pkg"}},
	}
	for _, tc := range tests {
		flags, patterns := Split(tc.args)
		if !reflect.DeepEqual(flags, tc.flags) || !reflect.DeepEqual(patterns, tc.patterns) {
			t.Errorf("Split(%q) = %q, %q; want %q, %q", tc.args, flags, patterns, tc.flags, tc.patterns)
		}
	}
}

func TestWithoutTags(t *testing.T) {
	tests := []struct {
		args       []string
		rest, tags []string
	}{
		{[]string{"-cover"}, []string{"-cover"}, nil},
		{[]string{"-tags=a,b", "-v"}, []string{"-v"}, []string{"a", "b"}},
		{[]string{"-tags", "a b", "-v"}, []string{"-v"}, []string{"a", "b"}},
		{[]string{"--tags=x"}, nil, []string{"x"}},
	}
	for _, tc := range tests {
		rest, tags := withoutTags(tc.args)
		if !reflect.DeepEqual(rest, tc.rest) || !reflect.DeepEqual(tags, tc.tags) {
			t.Errorf("withoutTags(%q) = %q, %q; want %q, %q", tc.args, rest, tags, tc.rest, tc.tags)
		}
	}
}
