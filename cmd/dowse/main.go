// Command dowse generates unit tests for Go packages by concolic execution
// and reports which calls in existing test suites hit mocks.
//
// Usage:
//
//	dowse gen    [flags] [packages]   explore targets and write _test.go files
//	dowse detect [flags] [packages]   report mock invocations in test code
//	dowse survey [flags] [packages]   count the code patterns that need generated mock types
//	dowse help   [command|topic]      list the commands and help topics, or show one
//
// Run "dowse <command> -h" for the flags of a command.
package main

import (
	"fmt"
	"os"
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
	if len(args) > 0 && args[0] == "help" {
		return helpMain(args[1:])
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(os.Stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "dowse: unknown command %q\n", args[0])
		usage(os.Stderr)
		return 2
	}
	return cmd.run(args[1:])
}
