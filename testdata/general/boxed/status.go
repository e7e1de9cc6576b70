package geom

import "strconv"

// StatusError is the failure of a request, with its status code.
type StatusError struct{ Code int }

func (e StatusError) Error() string { return "status " + strconv.Itoa(e.Code) }

// Retry says whether a request that ended with code is worth retrying.
func Retry(code int) bool {
	var err error
	if code >= 400 {
		err = StatusError{code}
	}
	if se, ok := err.(StatusError); ok && se.Code == 503 {
		return true
	}
	return false
}
