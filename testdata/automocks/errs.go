package automocks

import (
	"errors"
	"strconv"
)

// ErrMissing is the error of a key that is not there.
var ErrMissing = errors.New("missing")

// Temporary is an error that may go away.
type Temporary interface {
	Temporary() bool
}

// LimitError is the package's error for a limit exceeded.
type LimitError struct{ Limit int }

func (e *LimitError) Error() string { return "limit " + strconv.Itoa(e.Limit) }

// Classify says what kind of error err is, looking through the errors
// it wraps: a LimitError (with a big limit or not), a temporary error,
// ErrMissing itself or wrapped, or another.
func Classify(err error) string {
	if err == nil {
		return "none"
	}
	var le *LimitError
	if errors.As(err, &le) {
		if le.Limit > 100 {
			return "big limit"
		}
		return "limit"
	}
	var tmp Temporary
	if errors.As(err, &tmp) && tmp.Temporary() {
		return "temporary"
	}
	if errors.Is(err, ErrMissing) {
		if err != ErrMissing {
			return "wrapped missing"
		}
		return "missing"
	}
	return "other"
}
