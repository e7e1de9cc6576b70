// Package join writes values of mixed types as one line.
package join

import (
	"strconv"
	"strings"
)

// Join writes parts separated by sep: integers in decimal, strings
// quoted when they are empty, booleans as yes/no. A nil part is an
// error in the caller.
func Join(sep string, parts ...interface{}) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(sep)
		}
		switch v := p.(type) {
		case int:
			if v < 0 {
				b.WriteString("minus ")
				v = -v
			}
			b.WriteString(strconv.Itoa(v))
		case string:
			if v == "" {
				b.WriteString(`""`)
			} else {
				b.WriteString(v)
			}
		case bool:
			if v {
				b.WriteString("yes")
			} else {
				b.WriteString("no")
			}
		case nil:
			panic("join: nil part")
		default:
			b.WriteString("?")
		}
	}
	return b.String()
}

// Fields counts the parts of each kind in a record.
func Fields(record map[string]any) (ints, strs int) {
	for _, v := range record {
		switch v.(type) {
		case int:
			ints++
		case string:
			strs++
		}
	}
	return ints, strs
}
