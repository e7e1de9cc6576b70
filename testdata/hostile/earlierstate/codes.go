// Package codes hands out short numeric codes for names, from a table
// the process fills as names are registered.
package codes

import (
	"errors"
	"strings"
)

const size = 8

var (
	names  [size]string
	byName = map[string]int{}
)

// Register gives name the next free code and returns it; a name
// registered before keeps its code. Codes are handed out once per
// process: a program registers its few names at start-up.
func Register(name string) (int, error) {
	if name == "" || strings.ContainsAny(name, " \t") {
		return -1, errors.New("codes: bad name " + name)
	}
	if code, ok := byName[name]; ok {
		return code, nil
	}
	code := len(byName)
	names[code] = name
	byName[name] = code
	return code, nil
}

// Name returns the name of code, or "".
func Name(code int) string {
	if code < 0 || code >= len(byName) {
		return ""
	}
	return names[code]
}
