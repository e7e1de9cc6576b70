package main

import (
	"io"
	"os"
	"strconv"
)

// isTerminal reports whether w is a terminal that a status line may be
// kept up to date on: a character device, outside CI (CI=true or any
// other value but false), with a TERM that is not dumb.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if ci := os.Getenv("CI"); ci != "" && ci != "false" {
		return false
	}
	return os.Getenv("TERM") != "dumb"
}

// columns is the width of the terminal w, 0 if it is not known.
func columns(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if n := termWidth(f.Fd()); n > 0 {
			return n
		}
	}
	n, _ := strconv.Atoi(os.Getenv("COLUMNS"))
	return max(n, 0)
}
