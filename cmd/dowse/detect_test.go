package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectExitCodes runs the subcommand on the detector's GOPATH
// fixtures: 0 on success (also with a broken package beside good ones), 1
// when nothing could be analysed, 2 for usage errors.
func TestDetectExitCodes(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "internal", "detect", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPATH", testdata)
	t.Setenv("GO111MODULE", "off")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	src := filepath.Join(testdata, "src")
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"ok", []string{"-C", src, "example.com/scenarios/gomock"}, 0, "mock invocations 10"},
		{"json", []string{"-C", src, "-json", "example.com/scenarios/nomocks"}, 0, `"kind":"package"`},
		{"partial", []string{"-C", src, "example.com/scenarios/broken", "example.com/scenarios/nomocks"}, 0, "not analysed"},
		{"broken", []string{"-C", src, "example.com/scenarios/broken"}, 1, "not analysed"},
		{"bad flag", []string{"-nosuchflag"}, 2, ""},
		{"bad mock-type", []string{"-mock-type", "NoDot"}, 2, ""},
		{"prod without inter", []string{"-into-production", "."}, 2, ""},
		{"missing config", []string{"-config", filepath.Join(t.TempDir(), "none.json")}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := detectMain(tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.out) {
				t.Errorf("output does not contain %q:\n%s", tc.out, stdout.String())
			}
		})
	}
}
