package emit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dowse-go/dowse/rt"
)

// This file writes the comments of generated tests: doc comments and
// the note on each row of what it found, cleaned and wrapped.

// doc starts a declaration with a blank line and text as its doc comment.
func (w *writer) doc(text string) {
	w.pf("\n")
	for _, l := range wrap(text, 76) {
		w.pf("// %s\n", l)
	}
}

// comment writes the failure and path condition of a row as comment
// lines, the first starting with first, the others with rest.
func (w *writer) comment(first, rest string, row *Row) {
	lines := wrap(found(row), 76)
	if cond := clean(row.PathCondition); cond != "" {
		if max := w.opts.maxCondition(); len(cond) > max {
			cut := max
			for cut > 0 && !utf8RuneStart(cond[cut]) {
				cut--
			}
			cond = fmt.Sprintf("%s ... (%d more bytes)", cond[:cut], len(cond)-cut)
		}
		for i, l := range wrap("path: "+cond, 76) {
			if i > 0 {
				l = "  " + l
			}
			lines = append(lines, l)
		}
	}
	for i, l := range lines {
		if i == 0 {
			w.pf("%s%s\n", first, l)
		} else {
			w.pf("%s%s\n", rest, l)
		}
	}
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// found describes how a failing run ended, on one line.
func found(row *Row) string {
	s := row.Status.String()
	msg := clean(strings.Join(row.Messages, "; "))
	switch {
	case msg != "":
		s += ": " + msg
	case row.Status == rt.StatusTimeout:
		s += ": the run did not finish in time"
	case row.Status == rt.StatusExit:
		s += ": the process exited"
	}
	if row.PanicAt != "" {
		s += " (at " + clean(row.PanicAt) + ")"
	}
	if len(s) > 300 {
		cut := 300
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + " ..."
	}
	return s
}

// clean makes text fit on one comment line: whitespace runs collapsed to
// one space, bytes that are not UTF-8 written \xff and other characters
// that are not graphic (NUL, which no Go source may hold, control
// characters, a byte order mark) escaped as in a Go string, \x00.
func clean(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsSpace(c):
			b.WriteByte(' ')
		case !unicode.IsGraphic(c):
			q := strconv.QuoteRune(c)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(c)
		}
		i += size
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// wrap breaks s into lines of at most width bytes at spaces (a longer word
// gets a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// rowWidth is the width beyond which a table row is written with one
// field per line.
const rowWidth = 120
