package main

import (
	"encoding/json"
	"io"

	"github.com/dowse-go/dowse/internal/explore/output"
)

// outputs returns the handler the results of dowse gen go to, with its
// progress reporting (docs/output.md), and the writer diagnostics go
// to: on a terminal, a status line kept on standard error, which other
// output written to that terminal clears first; off one, a plain line
// every few seconds, with -json too; with -json -progress, progress
// events in the stream instead. done stops the status line.
func outputs(cfg genConfig, stdout, stderr io.Writer) (out output.Handler, diag io.Writer, done func()) {
	var results output.Handler
	if cfg.json {
		j := output.NewJSONHandler(stdout)
		if cfg.progressEvents {
			j.WithProgress(0)
			return j, stderr, func() {}
		}
		results = j
	}
	if !cfg.progress {
		if results == nil {
			results = output.NewTextHandler(stdout, cfg.verbose)
		}
		return results, stderr, func() {}
	}
	mode, width := output.StatusPlain, 0
	term := isTerminal(stderr)
	if term {
		mode, width = output.StatusTerminal, columns(stderr)
	}
	st := output.NewStatus(stderr, mode, width, 0)
	if term && isTerminal(stdout) {
		stdout = st.Writer(stdout) // the summary clears the status line first
	}
	if results == nil {
		results = output.NewTextHandler(stdout, cfg.verbose)
	}
	return output.WithStatus(results, st), st.Writer(stderr), st.Close
}

// streamError writes err, which ends the run, into the JSON stream if
// out writes one (docs/output.md, "JSON"); standard error has it too.
func streamError(out output.Handler, err error) {
	if j, ok := out.(interface{ Error(error) error }); ok {
		j.Error(err)
	}
}

// jsonError writes {"error": msg} on a line of w: how a JSON stream of
// dowse says why it ends.
func jsonError(w io.Writer, msg string) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		Error string `json:"error"`
	}{msg})
}
