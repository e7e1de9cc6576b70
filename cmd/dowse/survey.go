package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dowse-go/dowse/internal/survey"
)

func init() {
	commands["survey"] = command{summary: "count the code patterns that need generated mock types", run: runSurvey}
}

func runSurvey(args []string) int {
	return surveyMain(args, os.Stdout, os.Stderr)
}

func surveyMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("survey", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		jsonOut = fs.Bool("json", false, "write one JSON object per package, one per line")
		verbose = fs.Bool("v", false, "list the position of every finding")
		tags    = fs.String("tags", "", "comma-separated build tags")
		dir     = fs.String("C", "", "run in `dir`")
	)
	if code, ok := parseFlags(fs, args, stderr, "usage: dowse survey [flags] [packages]", "\nCounts, per package, the patterns that need generated types to be\ncovered: type assertions and switches on interface parameters,\nreflection on parameters, struct tag reads and errors.As (docs/mocks.md)."); !ok {
		return code
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	if err := preflight(*dir, patterns); err != nil {
		fmt.Fprintf(stderr, "dowse survey: %v\n", err)
		return 1
	}
	wd := *dir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			fmt.Fprintf(stderr, "dowse survey: %v\n", err)
			return 1
		}
	}
	pkgs, err := survey.Run(wd, *tags, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "dowse survey: %v\n", err)
		return 1
	}
	if *jsonOut {
		enc := json.NewEncoder(stdout)
		for _, p := range pkgs {
			if err := enc.Encode(p); err != nil {
				fmt.Fprintf(stderr, "dowse survey: %v\n", err)
				return 1
			}
		}
		return 0
	}
	fmt.Fprintf(stdout, "%-40s %6s %7s", "package", "funcs", "flagged")
	for _, k := range survey.Kinds {
		fmt.Fprintf(stdout, " %9s", k)
	}
	fmt.Fprintln(stdout)
	for _, p := range pkgs {
		fmt.Fprintf(stdout, "%-40s %6d %7d", p.Path, p.Funcs, p.Flagged)
		for _, k := range survey.Kinds {
			fmt.Fprintf(stdout, " %9d", p.Counts[k])
		}
		fmt.Fprintln(stdout)
		if *verbose {
			for _, f := range p.Findings {
				fmt.Fprintf(stdout, "  %s: %s in %s\n", f.Position, f.Kind, f.Func)
			}
		}
	}
	return 0
}
