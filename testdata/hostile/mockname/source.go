// Package mockname reads text from a source that hands out a reader, or
// that is a reader itself.
package mockname

import (
	"errors"
	"io"
)

// Source hands out the reader of its content. A mock of Source has a
// struct type for one call's results of Reader, named after both; so
// has a mock of Source that is an io.Reader too.
type Source interface {
	Reader() (io.Reader, error)
}

// First returns the first byte of src's content.
func First(src Source) (byte, error) {
	if src == nil {
		return 0, errors.New("no source")
	}
	r, ok := src.(io.Reader)
	if !ok {
		var err error
		if r, err = src.Reader(); err != nil {
			return 0, err
		}
		if r == nil {
			return 0, errors.New("no reader")
		}
	}
	var b [1]byte
	n, err := r.Read(b[:])
	if n == 1 {
		return b[0], nil
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	return 0, err
}
