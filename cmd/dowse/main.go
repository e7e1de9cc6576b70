// Command dowse generates unit tests for Go packages by concolic execution
// and reports which calls in existing test suites hit mocks.
//
// Usage:
//
//	dowse gen    [flags] [packages]   explore targets and write _test.go files
//	dowse detect [flags] [packages]   report mock invocations in test code
//	dowse survey [flags] [packages]   count the code patterns that need generated mock types
//
// Run "dowse <command> -h" for the flags of a command.
package main

import (
	"fmt"
	"os"
	"sort"
)

// command is one subcommand of dowse. run receives the arguments after the
// command name and returns the process exit code.
type command struct {
	summary string
	run     func(args []string) int
}

// commands is filled by the init functions of the files that implement each
// subcommand, so that each lives in a file of its own.
var commands = map[string]command{}

func main() {
	os.Exit(dispatch(os.Args[1:]))
}

func dispatch(args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "dowse: unknown command %q\n", args[0])
		usage()
		return 2
	}
	return cmd.run(args[1:])
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: dowse <command> [flags] [packages]")
	fmt.Fprintln(os.Stderr, "\ncommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", name, commands[name].summary)
	}
}
