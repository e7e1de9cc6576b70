// Package report renders what dowse gen found as one self-contained HTML
// page: per package, the source with what became of every branch
// outcome and why the uncovered ones were not covered; per target, its
// rows and findings. It reads the summaries of the -json stream
// (output.Target), so that a page rendered during the run (dowse gen
// -html) and one rendered later from the stream (dowse report) are the
// same.
package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/dowse-go/dowse/internal/explore/output"
)

// Options say where the sources are and what to call the page.
type Options struct {
	// Dir is the directory positions are relative to (the directory
	// dowse gen ran in, or its -C).
	Dir string
	// Title heads the page; empty: "dowse report".
	Title string
}

// ReadStream reads the JSON objects of a dowse gen -json stream, one
// target each.
func ReadStream(r io.Reader) ([]*output.Target, error) {
	dec := json.NewDecoder(bufio.NewReader(r))
	var out []*output.Target
	for n := 1; ; n++ {
		t := new(output.Target)
		if err := dec.Decode(t); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading target %d of the stream: %w", n, err)
		}
		out = append(out, t)
	}
}

// Collector is an output.Handler that keeps every target it is handed,
// passing each on to Next (if not nil).
type Collector struct {
	Next    output.Handler
	Targets []*output.Target
}

// Target implements output.Handler.
func (c *Collector) Target(t *output.Target) error {
	c.Targets = append(c.Targets, t)
	if c.Next != nil {
		return c.Next.Target(t)
	}
	return nil
}

// Flush implements output.Handler.
func (c *Collector) Flush() error {
	if c.Next != nil {
		return c.Next.Flush()
	}
	return nil
}
