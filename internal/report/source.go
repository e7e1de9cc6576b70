package report

import (
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/dowse-go/dowse/internal/explore/output"
)

// file is one source file of a package as the page shows it.
type file struct {
	ID, Path string
	Lines    []line
	// Missing says why the source is not shown (it could not be read);
	// Notes then still list its sites.
	Missing           string
	Covered, Outcomes int
	Uncovered         int    // outcomes not covered
	Notes             []note // the uncovered outcomes and the concretizations, by line
}

// line is one line of source with its branch markers.
type line struct {
	N      int
	Anchor string
	Class  string // "full", "part", "none", "dead" or "" (no branch site)
	HTML   template.HTML
	Notes  []note
}

// maxFileBytes bounds the source read for one file.
const maxFileBytes = 4 << 20

// renderFile renders file name (relative to dir unless absolute) with the
// sites of sites that lie in it.
func renderFile(id, name, dir string, sites map[string]*site) *file {
	f := &file{ID: id, Path: name}
	var mine []*site
	for _, s := range sites {
		if s.file == name {
			mine = append(mine, s)
		}
	}
	sort.Slice(mine, func(i, j int) bool {
		a, b := mine[i], mine[j]
		if a.line != b.line {
			return a.line < b.line
		}
		if a.col != b.col {
			return a.col < b.col
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.n < b.n
	})
	byLine := map[int][]*site{}
	for _, s := range mine {
		if s.kind != "" {
			f.Outcomes += 2
			for i := range 2 {
				if s.state[i] == output.OutcomeCovered {
					f.Covered++
				} else {
					f.Uncovered++
				}
			}
		}
		byLine[s.line] = append(byLine[s.line], s)
	}
	for _, s := range mine {
		for _, n := range siteNotes(s) {
			n.Link = fmt.Sprintf("#%s-L%d", id, s.line)
			f.Notes = append(f.Notes, n)
		}
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	src, err := readSource(path)
	if err != nil {
		f.Missing = err.Error()
		for i := range f.Notes {
			f.Notes[i].Link = ""
		}
		return f
	}
	text := strings.TrimSuffix(string(src), "\n")
	for i, l := range strings.Split(text, "\n") {
		n := i + 1
		ln := line{N: n, Anchor: fmt.Sprintf("%s-L%d", id, n)}
		ln.HTML, ln.Class = markLine(l, byLine[n])
		for _, s := range byLine[n] {
			ln.Notes = append(ln.Notes, siteNotes(s)...)
		}
		f.Lines = append(f.Lines, ln)
	}
	return f
}

// readSource reads a source file, refusing very large ones.
func readSource(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("source not available: %w", err)
	}
	if fi.Size() > maxFileBytes {
		return nil, fmt.Errorf("source not shown: %s is %d bytes", path, fi.Size())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("source not available: %w", err)
	}
	return b, nil
}

// siteNotes says, for each outcome of s not covered, why, and what was
// concretized at s.
func siteNotes(s *site) []note {
	var out []note
	where := fmt.Sprintf("%s:%d:%d", s.file, s.line, s.col)
	if s.kind != "" {
		for _, i := range []int{1, 0} {
			if s.state[i] == output.OutcomeCovered {
				continue
			}
			var whys []string
			for _, r := range s.why[i] {
				whys = append(whys, r.text+" ("+strings.Join(r.targets, ", ")+")")
			}
			why := strings.Join(whys, "; ")
			if why == "" {
				if s.reachedBy[i] {
					why = "reached, not taken"
				} else {
					why = "no run reached this branch"
				}
			}
			out = append(out, note{Where: where, What: kindName(s.kind) + " " + outcomeName(i), Why: why})
		}
	}
	for _, c := range dedup(s.concretized) {
		out = append(out, note{Where: where, What: "note", Why: c})
	}
	return out
}

func dedup(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// markLine escapes the source line l and inserts a marker before the
// column of each branch site of sites (byte columns, from 1); class
// colours the line by how much of its branches the runs covered.
func markLine(l string, sites []*site) (template.HTML, string) {
	var b strings.Builder
	at := 0
	covered, outcomes, dead := 0, 0, 0
	for _, s := range sites {
		col := min(max(s.col-1, at), len(l))
		b.WriteString(template.HTMLEscapeString(l[at:col]))
		at = col
		if s.kind == "" {
			b.WriteString(`<span class="cz" title="` + template.HTMLEscapeString(strings.Join(dedup(s.concretized), "\n")) + `">◆</span>`)
			continue
		}
		b.WriteString(`<span class="mk" title="` + template.HTMLEscapeString(kindName(s.kind)+" at "+strconv.Itoa(s.line)+":"+strconv.Itoa(s.col)) + `">`)
		for _, i := range []int{1, 0} {
			outcomes++
			switch s.state[i] {
			case output.OutcomeCovered:
				covered++
			case output.OutcomeInfeasible:
				dead++
			}
			letter := "T"
			if i == 0 {
				letter = "F"
			}
			fmt.Fprintf(&b, `<span class="o %s" title="%s %s: %s">%s</span>`, s.state[i], template.HTMLEscapeString(kindName(s.kind)), outcomeName(i), s.state[i], letter)
		}
		b.WriteString(`</span>`)
	}
	b.WriteString(template.HTMLEscapeString(l[at:]))
	class := ""
	switch {
	case outcomes == 0:
	case covered == outcomes:
		class = "full"
	case covered > 0:
		class = "part"
	case dead == outcomes:
		class = "dead"
	default:
		class = "none"
	}
	return template.HTML(b.String()), class
}

// kindNames name the kinds of branch sites (instrument's site kinds)
// for people; implicit branches are the checks the language makes.
var kindNames = map[string]string{
	"cond": "condition", "case": "case", "typeswitch": "type switch case", "range": "range loop",
	"rune": "rune decoding", "index": "index bounds check", "slice": "slice bounds check",
	"div": "division by zero check", "shift": "shift count check", "make": "make length check",
	"store": "store check", "recv": "receive", "copy": "copy length", "floatconv": "float to integer range check",
}

// kindName names a kind of branch site.
func kindName(kind string) string {
	if n, ok := kindNames[kind]; ok {
		return n
	}
	return kind
}
