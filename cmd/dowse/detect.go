package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dowse-go/dowse/internal/detect"
	"github.com/dowse-go/dowse/internal/detect/report"
	"github.com/dowse-go/dowse/internal/detect/sources"
)

func init() {
	commands["detect"] = command{summary: "report which calls in test code hit mocks", run: runDetect}
}

// listFlag collects the values of a repeatable flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	if err := sources.CheckQualified(s); err != nil {
		return err
	}
	*l = append(*l, s)
	return nil
}

func runDetect(args []string) int {
	return detectMain(args, os.Stdout, os.Stderr)
}

func detectMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("detect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		jsonOut   = fs.Bool("json", false, "write one JSON object per line per call site and per package")
		verbose   = fs.Bool("v", false, "list every call site in the text report, not only mock invocations")
		inter     = fs.Bool("interprocedural", false, "propagate mocks between tests and their helpers (dowse help detect)")
		intoProd  = fs.Bool("into-production", false, "with -interprocedural, also through production code (dowse help detect)")
		tags      = fs.String("tags", "", "comma-separated build tags")
		dir       = fs.String("C", "", "run in `dir` (the module to analyse)")
		config    = fs.String("config", "", "JSON `file` of extra mock sources (mockTypes, mockFuncs, notMockTypes)")
		mockTypes listFlag
		mockFuncs listFlag
	)
	fs.Var(&mockTypes, "mock-type", "`pkgpath.Type` whose values are mocks (repeatable)")
	fs.Var(&mockFuncs, "mock-func", "`pkgpath.Func` or pkgpath.Type.Method whose results are mocks (repeatable)")
	if code, ok := parseFlags(fs, args, stderr, "usage: dowse detect [flags] [packages]", "\nReports, for every call in the test files of the packages, whether its\nreceiver may be a mock object, and per test the focal-method candidates."); !ok {
		return code
	}
	cfg := &sources.Config{}
	if *config != "" {
		c, err := sources.ReadConfig(*config)
		if err != nil {
			fmt.Fprintf(stderr, "dowse detect: %v\n", err)
			return 2
		}
		cfg = c
	}
	cfg.MockTypes = append(cfg.MockTypes, mockTypes...)
	cfg.MockFuncs = append(cfg.MockFuncs, mockFuncs...)
	if *intoProd && !*inter {
		fmt.Fprintln(stderr, "dowse detect: -into-production needs -interprocedural")
		return 2
	}

	if err := preflight(*dir, fs.Args()); err != nil {
		fmt.Fprintf(stderr, "dowse detect: %v\n", err)
		if *jsonOut {
			jsonError(stdout, err.Error())
		}
		return 1
	}
	opts := detect.Options{Interprocedural: *inter, IntoProduction: *intoProd}
	prog, err := detect.Load(detect.LoadConfig{Dir: *dir, Tags: *tags, Options: opts}, fs.Args()...)
	if err != nil {
		fmt.Fprintf(stderr, "dowse detect: %v\n", err)
		if *jsonOut {
			jsonError(stdout, err.Error())
		}
		return 1
	}
	var h detect.Handler
	var text *report.TextHandler
	if *jsonOut {
		h = report.NewJSONHandler(stdout)
	} else {
		text = report.NewTextHandler(stdout)
		text.Verbose = *verbose
		h = text
	}
	if _, err := prog.Analyze(cfg, opts, h); err != nil {
		fmt.Fprintf(stderr, "dowse detect: %v\n", err)
		return 1
	}
	if text != nil {
		if err := text.Flush(); err != nil {
			fmt.Fprintf(stderr, "dowse detect: %v\n", err)
			return 1
		}
	}
	if text == nil {
		// The text report lists them already.
		for _, e := range prog.Errors {
			fmt.Fprintf(stderr, "dowse detect: %s: %s\n", e.Package, strings.Join(e.Errors, "; "))
		}
	}
	if prog.Analyzed() == 0 && len(prog.Errors) > 0 {
		return 1
	}
	return 0
}

// parseFlags parses the flags of a subcommand whose -h prints usage, then
// about and the flags' defaults; ok is false when the command must exit
// with code (0 after -h, 2 on a bad flag).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer, usage, about string) (code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fmt.Fprintln(stderr, about)
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}
