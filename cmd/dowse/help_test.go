package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
)

// TestHelp checks "dowse help": the list, each topic with the flags it
// explains, a command's flags, and an unknown name.
func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want []string // in standard output
	}{
		{nil, 0, []string{"commands:", "gen ", "help topics", "bounds ", "isolation ", "exit "}},
		{[]string{"bounds"}, 0, []string{"-max-time", "-max-runs", "-max-branches", "-run-timeout", "-solver-timeout", "-max-memory", "-max-len", "-len-cap"}},
		{[]string{"fuzz"}, 0, []string{"-fuzz-share", "-mutate", "-corpus"}},
		{[]string{"isolation"}, 0, []string{"-isolate", "-real", "-unit", "-instrument-module", "-instrument patterns"}},
		{[]string{"targets"}, 0, []string{"-run", "-auto", "-shard", "-row-per-path", "-search", "-seed"}},
		{[]string{"mocks"}, 0, []string{"-mocks", "-mock-calls"}},
		{[]string{"cache"}, 0, []string{"-cache", "DOWSE_CACHE"}},
		{[]string{"exit"}, 0, []string{"130, 143", "\n  3 "}},
		{[]string{"detect"}, 0, []string{"-interprocedural", "-into-production"}},
		{[]string{"nosuch"}, 2, nil},
		{[]string{"bounds", "fuzz"}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(append([]string{"help"}, tt.args...), " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := runHelp(tt.args, &out, &errb); code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if tt.code != 0 && errb.Len() == 0 {
				t.Errorf("no message on standard error")
			}
		})
	}
}

// TestUsageShort checks that every flag's usage in the -h of every
// subcommand fits in about a line, and that every topic a usage points to
// exists and explains that flag.
func TestUsageShort(t *testing.T) {
	tests := []struct {
		cmd      string
		minFlags int // flags -h must list, so that a change of format fails
		help     func(stdout, stderr io.Writer) int
	}{
		{"gen", 20, func(_, stderr io.Writer) int { _, _, code := parseGenFlags([]string{"-h"}, stderr); return code }},
		{"detect", 9, func(stdout, stderr io.Writer) int { return detectMain([]string{"-h"}, stdout, stderr) }},
		{"survey", 4, func(stdout, stderr io.Writer) int { return surveyMain([]string{"-h"}, stdout, stderr) }},
		{"report", 3, func(stdout, stderr io.Writer) int {
			return reportMain([]string{"-h"}, strings.NewReader(""), stdout, stderr)
		}},
		// dowse test explains its few flags in its usage text.
		{"test", 0, func(stdout, stderr io.Writer) int {
			return testMain(context.Background(), []string{"-h"}, stdout, stderr)
		}},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.cmd] = true
		t.Run(tt.cmd, func(t *testing.T) {
			var out bytes.Buffer
			if code := tt.help(&out, &out); code != exitOK {
				t.Fatalf("%s -h: exit %d", tt.cmd, code)
			}
			if flags := checkUsages(t, out.String()); flags < tt.minFlags {
				t.Fatalf("read %d flags from %s -h, want at least %d:\n%s", flags, tt.cmd, tt.minFlags, out.String())
			}
		})
	}
	for name := range commands {
		if !covered[name] {
			t.Errorf("dowse %s has no row: add one", name)
		}
	}
}

// checkUsages checks the flags' usages in the output of -h (that of
// flag.PrintDefaults) and returns how many flags it read.
func checkUsages(t *testing.T, help string) int {
	t.Helper()
	// PrintDefaults: "  -name type" then "    \tusage (default x)".
	flagLine := regexp.MustCompile(`^  -([\w-]+)`)
	pointer := regexp.MustCompile(`\(dowse help (\w+)\)|; dowse help (\w+)\)`)
	var name string
	flags := 0
	for _, line := range strings.Split(help, "\n") {
		if m := flagLine.FindStringSubmatch(line); m != nil {
			name = m[1]
			flags++
			continue
		}
		if name == "" || !strings.HasPrefix(line, "    \t") {
			continue
		}
		use := strings.TrimPrefix(line, "    \t")
		if i := strings.LastIndex(use, " (default "); i >= 0 {
			use = use[:i]
		}
		if len(use) > 80 {
			t.Errorf("-%s: usage of %d characters, want at most 80: %q", name, len(use), use)
		}
		for _, m := range pointer.FindAllStringSubmatch(use, -1) {
			topic := m[1] + m[2]
			var out, errb bytes.Buffer
			if runHelp([]string{topic}, &out, &errb) != 0 {
				t.Errorf("-%s points to dowse help %s, which does not exist", name, topic)
				continue
			}
			if !strings.Contains(out.String(), "-"+name+" ") && !strings.Contains(out.String(), "-"+name+"\n") {
				t.Errorf("-%s points to dowse help %s, which does not explain it", name, topic)
			}
		}
	}
	return flags
}
