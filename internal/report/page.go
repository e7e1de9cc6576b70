package report

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/internal/explore/output"
)

// page is what the template draws.
type page struct {
	Title    string
	Dir      string
	Totals   totals
	Packages []*pkg
}

// totals are the figures at the top of the page. Covered and Outcomes
// count the distinct branch outcomes of all packages, an outcome covered
// if some target's runs took it.
type totals struct {
	Targets, Rows, Covered, Outcomes, Findings, Apart int
}

// pkg is one package: its targets and the source files with branch sites.
type pkg struct {
	Path              string
	ID                string
	Targets           []*target
	Files             []*file
	Covered, Outcomes int
}

// target is one target's summary with the links the page makes.
type target struct {
	*output.Target
	ID        string
	PosLink   string // anchor of its declaration, "" if its file is not shown
	Verdict   string
	Short     string // the verdict cut to fit its package's table
	Findings  []finding
	Apart     []finding
	Uncovered []note // what its summary says of the outcomes it did not cover
}

// finding is a cause of failures with a link to where it panicked and
// the command that reproduces it.
type finding struct {
	output.Finding
	Go        string // the smallest input as the generated test writes it, if a row has it
	PanicLink string
	Repro     string
}

// note says why an outcome was not covered, or what happened at a site.
type note struct {
	Link, Where, What, Why string
}

// site is a branch site of a package, its outcomes merged over the
// package's targets.
type site struct {
	file        string
	line, col   int
	kind        string
	n           int         // occurrence among the sites of its kind at its position
	state       [2]string   // [false, true]: OutcomeCovered, OutcomeInfeasible or OutcomeOpen
	why         [2][]reason // why an outcome was not covered, each reason once
	reachedBy   [2]bool     // some target covered the other outcome
	concretized []string    // concretizations recorded here
}

// reason is why an outcome was not covered, and the targets that say so.
type reason struct {
	text    string
	targets []string
}

// addReason adds that target says text of outcome i of s.
func (s *site) addReason(i int, text, target string) {
	for k := range s.why[i] {
		if r := &s.why[i][k]; r.text == text {
			if !slices.Contains(r.targets, target) {
				r.targets = append(r.targets, target)
			}
			return
		}
	}
	s.why[i] = append(s.why[i], reason{text, []string{target}})
}

// posRE splits a position "file:line:col" (column optional) from what
// may follow it.
var posRE = regexp.MustCompile(`^(.+?):(\d+)(?::(\d+))?(?:: (.*))?$`)

// parsePos parses "file:line[:col][: rest]".
func parsePos(p string) (file string, line, col int, rest string, ok bool) {
	m := posRE.FindStringSubmatch(p)
	if m == nil {
		return "", 0, 0, "", false
	}
	line, _ = strconv.Atoi(m[2])
	col, _ = strconv.Atoi(m[3])
	return m[1], line, col, m[4], true
}

// outcomeName names outcome i (0: false, 1: true) of a site of kind.
func outcomeName(i int) string {
	if i == 1 {
		return "true"
	}
	return "false"
}

// rank orders the states of an outcome: covered beats infeasible beats
// open.
func rank(s string) int {
	switch s {
	case output.OutcomeCovered:
		return 2
	case output.OutcomeInfeasible:
		return 1
	}
	return 0
}

// build makes the page of targets.
func build(targets []*output.Target, opts Options) *page {
	pg := &page{Title: opts.Title, Dir: opts.Dir}
	if pg.Title == "" {
		pg.Title = "dowse report"
	}
	byPath := map[string]*pkg{}
	sites := map[*pkg]map[string]*site{}
	fileIDs := map[string]string{} // "pkg\x00file" -> anchor prefix
	nfiles := 0
	for _, t := range targets {
		p := byPath[t.Package]
		if p == nil {
			p = &pkg{Path: t.Package, ID: fmt.Sprintf("p%d", len(pg.Packages)+1)}
			byPath[t.Package] = p
			sites[p] = map[string]*site{}
			pg.Packages = append(pg.Packages, p)
		}
		tg := &target{Target: t, ID: fmt.Sprintf("%s-t%d", p.ID, len(p.Targets)+1)}
		p.Targets = append(p.Targets, tg)
		pg.Totals.Targets++
		pg.Totals.Rows += len(t.Rows)
		mergeSites(sites[p], t)
	}
	for _, p := range pg.Packages {
		files := map[string]bool{}
		for _, s := range sites[p] {
			files[s.file] = true
		}
		for _, tg := range p.Targets {
			if f, _, _, _, ok := parsePos(tg.Position); ok && f != "" {
				files[f] = true
			}
		}
		var names []string
		for f := range files {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, name := range names {
			nfiles++
			id := fmt.Sprintf("f%d", nfiles)
			fileIDs[p.Path+"\x00"+name] = id
			p.Files = append(p.Files, renderFile(id, name, opts.Dir, sites[p]))
		}
		for _, f := range p.Files {
			p.Covered += f.Covered
			p.Outcomes += f.Outcomes
		}
		pg.Totals.Covered += p.Covered
		pg.Totals.Outcomes += p.Outcomes
		link := func(pos string) string {
			f, line, _, _, ok := parsePos(pos)
			if !ok {
				return ""
			}
			if id, ok := fileIDs[p.Path+"\x00"+f]; ok && line > 0 {
				if fl := fileByID(p, id); fl != nil && line <= len(fl.Lines) {
					return "#" + id + "-L" + strconv.Itoa(line)
				}
			}
			return ""
		}
		for _, tg := range p.Targets {
			describe(tg, link)
			pg.Totals.Findings += len(tg.Findings)
			pg.Totals.Apart += len(tg.Apart)
		}
	}
	return pg
}

func fileByID(p *pkg, id string) *file {
	for _, f := range p.Files {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// mergeSites adds what target t says of its branch sites to sites.
func mergeSites(sites map[string]*site, t *output.Target) {
	// Sites are keyed by position, kind and occurrence: several sites may
	// share a position (an index expression's bounds check and the
	// condition it is part of).
	get := func(pos, kind string, n int) *site {
		file, line, col, _, ok := parsePos(pos)
		if !ok {
			return nil
		}
		key := fmt.Sprintf("%s:%d:%d|%s|%d", file, line, col, kind, n)
		s := sites[key]
		if s == nil {
			s = &site{file: file, line: line, col: col, kind: kind, n: n, state: [2]string{output.OutcomeOpen, output.OutcomeOpen}}
			sites[key] = s
		}
		return s
	}
	mine := map[*site][2]string{}
	at := map[string][]*site{} // this target's branch sites by position
	seen := map[string]int{}
	for _, b := range t.Branches {
		n := seen[b.Pos+"|"+b.Kind]
		seen[b.Pos+"|"+b.Kind]++
		s := get(b.Pos, b.Kind, n)
		if s == nil {
			continue
		}
		st := [2]string{b.False, b.True}
		mine[s] = st
		at[b.Pos] = append(at[b.Pos], s)
		for i := range 2 {
			if rank(st[i]) > rank(s.state[i]) {
				s.state[i] = st[i]
			}
		}
	}
	// The sites a position in the summary names: the branch sites there,
	// or one that only carries notes.
	sitesAt := func(pos string) []*site {
		if ss := at[pos]; len(ss) > 0 {
			return ss
		}
		if s := get(pos, "", 0); s != nil {
			return []*site{s}
		}
		return nil
	}
	why := func(pos string, i int, text string) {
		for _, s := range at[pos] {
			s.addReason(i, text, t.Target)
		}
	}
	// Outcomes the summary gives a reason of their own for (below).
	longer, unsolved := map[string]bool{}, map[string]bool{}
	for _, b := range t.BoundLimited {
		longer[fmt.Sprintf("%s %v", b.Site, b.Taken)] = true
	}
	for _, u := range t.Unsolved {
		unsolved[fmt.Sprintf("%s %v", u.Site, u.Taken)] = true
	}
	for s, st := range mine {
		for i := range 2 {
			other := st[1-i] == output.OutcomeCovered
			if other {
				s.reachedBy[i] = true
			}
			key := fmt.Sprintf("%s:%d:%d %v", s.file, s.line, s.col, i == 1)
			switch {
			case longer[key]:
				// Said below, with the lengths it needs.
			case st[i] == output.OutcomeInfeasible && t.Exhaustive:
				s.addReason(i, "unreachable within the bounds: proven infeasible, and the search was exhaustive", t.Target)
			case st[i] == output.OutcomeInfeasible:
				s.addReason(i, "proven infeasible on the paths asked about", t.Target)
			case st[i] == output.OutcomeOpen && other && t.StopReason != "" && !unsolved[key]:
				s.addReason(i, "reached, not taken when the search stopped: "+t.StopReason, t.Target)
			}
		}
	}
	for _, b := range t.BoundLimited {
		why(b.Site, idx(b.Taken), fmt.Sprintf("needs longer inputs: %s%s", strings.Join(b.Lengths, ", "), boundText(t)))
	}
	for _, u := range t.Unsolved {
		why(u.Site, idx(u.Taken), "the solver gave up: "+u.Reason)
	}
	note := func(pos, text string) {
		// Once per position, on its first site.
		if ss := sitesAt(pos); len(ss) > 0 {
			ss[0].concretized = append(ss[0].concretized, text+" ("+t.Target+")")
		}
	}
	for _, d := range t.DivergenceSites {
		note(d, "a run diverged here")
	}
	for _, c := range t.ConcretizedAt {
		file, line, col, rest, ok := parsePos(c)
		if !ok {
			continue
		}
		note(fmt.Sprintf("%s:%d:%d", file, line, col), "concretized: "+rest)
	}
}

// boundText names the length bound of t: " (bound 10: raise -max-len)".
func boundText(t *output.Target) string {
	if t.Bounds.MaxLen == nil {
		return ""
	}
	return fmt.Sprintf(" (the bound was %d: raise -max-len)", *t.Bounds.MaxLen)
}

// describe fills in the verdict, findings and notes of tg.
func describe(tg *target, link func(string) string) {
	t := tg.Target
	tg.PosLink = link(t.Position)
	switch {
	case t.Error != "":
		tg.Verdict = "not explored: " + t.Error
	case t.Skipped != "":
		tg.Verdict = "skipped: " + t.Skipped
	case t.Exhaustive:
		tg.Verdict = "exhaustive"
		if t.Bounds.MaxLen != nil {
			tg.Verdict += fmt.Sprintf(" for strings and slices of at most %d elements", *t.Bounds.MaxLen)
		}
	default:
		tg.Verdict = "stopped: " + t.StopReason
		if len(t.Incomplete) > 0 {
			tg.Verdict += "; not exhaustive: " + strings.Join(t.Incomplete, ", ")
		}
	}
	tg.Short = shorten(tg.Verdict, maxShort)
	goInput := map[string]string{}
	for _, r := range t.Rows {
		if r.Go != "" {
			goInput[r.Input] = r.Go
		}
	}
	for _, f := range t.Findings {
		fd := finding{Finding: f, Go: goInput[f.Input], PanicLink: link(f.PanicAt), Repro: repro(t, f)}
		if f.Apart == "" {
			tg.Findings = append(tg.Findings, fd)
		} else {
			tg.Apart = append(tg.Apart, fd)
		}
	}
	// An outcome the solver gave up on may have been taken by a later
	// run: only those still not covered are listed, once.
	covered := map[string]bool{}
	for _, b := range t.Branches {
		covered[b.Pos+" true"] = b.True == output.OutcomeCovered
		covered[b.Pos+" false"] = b.False == output.OutcomeCovered
	}
	seen := map[note]bool{}
	add := func(n note) {
		if !seen[n] {
			seen[n] = true
			tg.Uncovered = append(tg.Uncovered, n)
		}
	}
	for _, b := range t.BoundLimited {
		if o := outcomeName(idx(b.Taken)); !covered[b.Site+" "+o] {
			add(note{Link: link(b.Site), Where: b.Site, What: "branch " + o, Why: "needs longer inputs: " + strings.Join(b.Lengths, ", ") + boundText(t)})
		}
	}
	for _, u := range t.Unsolved {
		if o := outcomeName(idx(u.Taken)); !covered[u.Site+" "+o] {
			add(note{Link: link(u.Site), Where: u.Site, What: "branch " + o, Why: "the solver gave up: " + u.Reason})
		}
	}
	for _, c := range t.ConcretizedAt {
		file, line, col, rest, ok := parsePos(c)
		if !ok {
			continue
		}
		pos := fmt.Sprintf("%s:%d:%d", file, line, col)
		add(note{Link: link(pos), Where: pos, What: "concretized", Why: rest})
	}
	for _, d := range t.DivergenceSites {
		add(note{Link: link(d), Where: d, What: "divergence", Why: "a run did not take the path its input was solved for"})
	}
}

// maxShort is the length, in runes, of a verdict in a package's table.
const maxShort = 90

// shorten cuts s to its first line and at most n runes, with an ellipsis
// if anything was cut.
func shorten(s string, n int) string {
	line, _, cut := strings.Cut(s, "\n")
	if r := []rune(line); len(r) > n {
		line, cut = string(r[:n-1]), true
	}
	if cut {
		line = strings.TrimRight(line, " ") + "…"
	}
	return line
}

func idx(taken bool) int {
	if taken {
		return 1
	}
	return 0
}

// repro is the command that reproduces finding f of t, "" if t has no
// generated failure test.
func repro(t *output.Target, f output.Finding) string {
	test := t.FailureTest
	for _, fl := range t.Failures {
		if fl.Finding == f.ID && fl.Test != "" {
			test = fl.Test
			break
		}
	}
	if test == "" {
		return ""
	}
	dir := "."
	if file, _, _, _, ok := parsePos(t.Position); ok {
		dir = filepath.ToSlash(filepath.Dir(file))
	}
	if !filepath.IsAbs(dir) && dir != "." && !strings.HasPrefix(dir, "./") {
		dir = "./" + dir
	}
	return fmt.Sprintf("%s=1 go test -run '^%s$' %s", emit.ReproduceEnv, test, dir)
}
