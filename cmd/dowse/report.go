package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/report"
)

func init() {
	commands["report"] = command{summary: "render the HTML report of a dowse gen -json stream", run: runReport}
}

func runReport(args []string) int {
	return reportMain(args, os.Stdin, os.Stdout, os.Stderr)
}

// reportMain is dowse report: it reads a dowse gen -json stream from
// stdin and writes the HTML page to -o, or to stdout.
func reportMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the report to `file` (default: standard output)")
	dir := fs.String("C", "", "`dir` dowse gen ran in (its -C), which holds the sources; default: the current one")
	in := fs.String("i", "", "read the stream from `file` (default: standard input)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dowse report [-o report.html] [-C dir] < stream.json")
		fmt.Fprintln(stderr, `
Renders the JSON stream of dowse gen -json as one self-contained HTML page
(the page dowse gen -html writes): per package, the source with every
branch outcome taken or not and why not, and per target its rows and
findings. Sources are read from the directory dowse gen ran in.

flags:`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dowse report: unexpected arguments %q (the stream is read from standard input)\n", fs.Args())
		return exitUsage
	}
	r := stdin
	if *in != "" {
		f, err := os.Open(*in)
		if err != nil {
			fmt.Fprintf(stderr, "dowse report: %v\n", err)
			return exitError
		}
		defer f.Close()
		r = f
	}
	targets, err := report.ReadStream(r)
	if err != nil {
		fmt.Fprintf(stderr, "dowse report: %v\n", err)
		return exitError
	}
	opts, err := reportOptions(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "dowse report: %v\n", err)
		return exitError
	}
	if *out == "" {
		err = report.Write(stdout, targets, opts)
	} else {
		err = report.WriteFile(*out, targets, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dowse report: %v\n", err)
		return exitError
	}
	return exitOK
}

// reportOptions are the options of a report on a run in dir (its -C;
// "" for the current directory), to which the positions are relative.
func reportOptions(dir string) (report.Options, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return report.Options{}, fmt.Errorf("the sources' directory: %w", err)
	}
	return report.Options{Dir: abs}, nil
}

// genHTML is gen that also writes the HTML report of the targets handed
// to out, to cfg.html, when the run ends (stopped by a signal too: the
// page then has what was found).
func genHTML(ctx context.Context, cfg genConfig, patterns []string, out output.Handler, stderr io.Writer) int {
	c := &report.Collector{Next: out}
	code := gen(ctx, cfg, patterns, c, stderr)
	opts, err := reportOptions(cfg.dir)
	if err == nil {
		err = report.WriteFile(cfg.html, c.Targets, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dowse gen: %v\n", err)
		if code == exitOK || code == exitFindings {
			code = exitError
		}
	}
	return code
}
