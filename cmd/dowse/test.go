package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dowse-go/dowse/internal/isolate"
	"github.com/dowse-go/dowse/internal/isotest"
)

func init() {
	commands["test"] = command{summary: "run go test with the isolation sandbox, so that isolated generated tests run", run: runTest}
}

func runTest(args []string) int {
	ctx, stop := signalContext("test")
	defer stop()
	return testMain(ctx, args, os.Stdout, os.Stderr)
}

// testMain is dowse test: its own flags (-isolate, -real, -C, -keep-work)
// come first, then go test's flags and the packages.
func testMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	iso, real, unit, dir, keep := "auto", "", "", "", false
	for len(args) > 0 {
		name, val, hasVal := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		if !strings.HasPrefix(args[0], "-") {
			break
		}
		switch name {
		case "isolate", "real", "unit", "C":
			if !hasVal {
				if len(args) < 2 {
					fmt.Fprintf(stderr, "dowse test: -%s needs a value\n", name)
					return exitUsage
				}
				val, args = args[1], args[1:]
			}
			switch name {
			case "isolate":
				iso = val
			case "real":
				real = val
			case "unit":
				unit = val
			case "C":
				dir = val
			}
		case "keep-work":
			keep = true
		case "h", "help":
			fmt.Fprintln(stderr, `usage: dowse test [-isolate=auto|off|list] [-real=list] [-unit=list] [-C dir] [go test flags] [packages]

Runs go test on the packages with the isolation sandbox (docs/isolate.md):
the isolated calls of each package are rewritten into sandbox calls in an
overlay (the package's files are never modified), and the generated
isolated tests (*_dowse_isolated_test.go, build tag dowse_isolated) run
with the sandbox values they recorded; other tests see the real calls.
go test's flags pass through: dowse test -cover prints go test's coverage.`)
			return 0
		default:
			goto rest
		}
		args = args[1:]
	}
rest:
	flags, patterns := isotest.Split(args)
	if err := preflight(dir, patterns); err != nil {
		fmt.Fprintf(stderr, "dowse test: %v\n", err)
		return exitError
	}
	code, err := isotest.Run(ctx, isotest.Config{Dir: dir, Isolate: isolate.Parse(iso, real, unit), GoTestArgs: flags, Stdout: stdout, Stderr: stderr, KeepWork: keep}, patterns)
	if ctx.Err() != nil {
		return stopCode(ctx)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dowse test: %v\n", err)
		if code == 0 {
			code = exitError
		}
	}
	return code
}
