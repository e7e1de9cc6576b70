package automocks

import (
	"errors"
	"io/fs"
)

// Where says which file an error is about when it is, or wraps, a
// *fs.PathError (a type of another package, which errors.As asks for),
// and whether the file is missing (fs.ErrNotExist, a sentinel of
// another package in a field of it).
func Where(err error) string {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return ""
	}
	if pe.Err == fs.ErrNotExist {
		return "no file " + pe.Path
	}
	return pe.Op + " " + pe.Path
}
