package emit

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"

	"github.com/dowse-go/dowse/rt"
)

// This file writes the tables of a PUT or fuzz target's generated test:
// the passing and failing rows, the call of the target, its sandbox.

// target writes the test functions of one target, and checks that they
// parse; a panic of the writer is an error of the target.
func (w *writer) target(p *plan) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("writing its tests (a bug in emit): %v", x)
		}
	}()
	if p.t.Fuzz {
		if len(p.fail) > 0 || len(p.keptCorpus) > 0 {
			w.fuzzFailures(p)
		}
	} else {
		if len(p.pass) > 0 && p.t.Auto {
			w.autoTable(p)
		} else if len(p.pass) > 0 {
			w.passTable(p)
		}
		if len(p.fail) > 0 || w.g.hasOld(p) {
			w.failTable(p)
		}
	}
	src := append([]byte("package p\n"), w.b.Bytes()...)
	if _, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution); err != nil {
		return fmt.Errorf("its generated code does not parse (a bug in emit): %w", err)
	}
	return nil
}

// writer writes the test functions of a generated file.
type writer struct {
	b       *bytes.Buffer
	r       *renderer
	imports *importSet
	opts    Options
	g       *generated
}

func (w *writer) pf(format string, args ...any) { fmt.Fprintf(w.b, format, args...) }

// tableHead writes "tests := []struct{...}{" for p's parameters.
func (w *writer) tableHead(p *plan, extra string) {
	w.pf("\ttests := []struct {\n\t\tname string\n")
	for _, i := range p.order() {
		w.pf("\t\t%s %s\n", p.fields[i], w.r.typeString(p.t.Params[i].Type()))
	}
	if extra != "" {
		w.pf("\t\t%s\n", extra)
	}
	w.pf("\t}{\n")
}

// rowFields renders the parameter fields of one row.
func (w *writer) rowFields(p *plan, rp rowPlan) string {
	parts := make([]string, 0, len(rp.vals))
	for _, i := range p.order() {
		parts = append(parts, p.fields[i]+": "+w.fieldLit(p, i, rp.vals[i]))
	}
	return strings.Join(parts, ", ")
}

// call renders the call of the target on tt's fields; for a target with
// isolated call sites, preceded by the setting of their variables.
func (w *writer) call(p *plan) string {
	args := []string{"t"}
	fields := p.fields[:len(p.fields)-len(p.t.Sandbox)]
	if p.t.Auto {
		args = nil
		if p.t.Method {
			fields = fields[1:]
		}
	}
	for i, f := range fields {
		a := "tt." + f
		if p.t.Variadic && i == len(fields)-1 {
			a += "..."
		}
		args = append(args, a)
	}
	if p.t.Auto {
		if p.t.Method {
			return "tt." + p.fields[0] + "." + p.t.Call + "(" + strings.Join(args, ", ") + ")"
		}
		return p.t.Call + "(" + strings.Join(args, ", ") + ")"
	}
	return p.t.Name + "(" + strings.Join(args, ", ") + ")"
}

// sandbox renders the statements that set the isolated call sites'
// variables from tt's fields and turn their packages' sandboxes on, and
// undo it when the case ends ("" for a target without sites).
func (w *writer) sandbox(p *plan) string {
	if len(p.t.Sandbox) == 0 {
		return ""
	}
	first := len(p.fields) - len(p.t.Sandbox)
	var lhs, set, reset []string
	switches := map[string]bool{}
	for i, sv := range p.t.Sandbox {
		q := ""
		if sv.Pkg.Path() != w.r.self {
			q = w.imports.names[sv.Pkg.Path()] + "."
		}
		if !switches[q+sv.Switch] {
			switches[q+sv.Switch] = true
			lhs, set, reset = append(lhs, q+sv.Switch), append(set, "true"), append(reset, "false")
		}
		lhs, set, reset = append(lhs, q+sv.Var), append(set, "tt."+p.fields[first+i]), append(reset, "nil")
	}
	l := strings.Join(lhs, ", ")
	return "\t\t\t" + l + " = " + strings.Join(set, ", ") + "\n\t\t\tt.Cleanup(func() {\n\t\t\t\t" + l + " = " + strings.Join(reset, ", ") + "\n\t\t\t})\n"
}

func (w *writer) passTable(p *plan) {
	testing := w.imports.names["testing"]
	w.doc(fmt.Sprintf("%s runs %s on one input per path that dowse explored and saw pass.", p.testName, p.t.Name))
	w.pf("func %s(t *%s.T) {\n", p.testName, testing)
	w.pf("%s", w.sandboxOn(p))
	w.tableHead(p, "")
	names := uniqueNames{}
	seen := map[string]bool{}
	for _, rp := range p.pass {
		fields := w.rowFields(p, rp)
		if seen[fields] {
			continue // the same input reached twice: the target is not deterministic
		}
		seen[fields] = true
		name := names.make(w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))
		line := "{name: " + quoteString(name)
		if fields != "" {
			line += ", " + fields
		}
		line += "},"
		if len(line) <= rowWidth && !strings.Contains(line, "\n") {
			w.pf("\t\t%s\n", line)
			continue
		}
		w.pf("\t\t{\n\t\t\tname: %s,\n", quoteString(name))
		for _, i := range p.order() {
			w.pf("\t\t\t%s: %s,\n", p.fields[i], w.fieldLit(p, i, rp.vals[i]))
		}
		w.pf("\t\t},\n")
	}
	w.pf("\t}\n")
	w.pf("\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *%s.T) {\n%s\t\t\t%s\n\t\t})\n\t}\n}\n", testing, w.sandbox(p), w.call(p))
}

func (w *writer) failTable(p *plan) {
	testing, os := w.imports.names["testing"], w.imports.names["os"]
	// The case names of the new rows, to carry the old ones they lack.
	have := map[string]bool{}
	{
		names := uniqueNames{}
		seen := map[string]bool{}
		for _, rp := range p.fail {
			key := w.rowFields(p, rp)
			if seen[key] {
				continue
			}
			seen[key] = true
			have[names.make(rp.row.Status.String()+":"+w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))] = true
		}
	}
	carried := w.carried(p, have)
	if len(p.fail) == 0 && len(carried) == 0 {
		return
	}
	panics := false
	for _, rp := range p.fail {
		panics = panics || recoverable(rp.row)
	}
	for _, r := range carried {
		panics = panics || r.panics
	}
	doc := fmt.Sprintf("%s holds the inputs on which dowse saw %s fail. Each case skips, reporting the failure, unless %s=1 is set; then it runs and fails.", p.failName, p.t.Name, ReproduceEnv)
	extra := "found string"
	if panics {
		doc = fmt.Sprintf("%s holds the inputs on which dowse saw %s fail. Each case skips, reporting the failure, unless %s=1 is set; then it runs and fails. A case that panicked runs up to its panic first, recovers it and skips, so that the statements on its path count in go test -cover; if it no longer panics, it passes.", p.failName, p.t.Name, ReproduceEnv)
		extra = "found  string\n\t\tpanics bool"
	}
	w.doc(doc)
	w.pf("func %s(t *%s.T) {\n", p.failName, testing)
	w.pf("%s", w.sandboxOn(p))
	w.tableHead(p, extra)
	names := uniqueNames{}
	seen := map[string]bool{}
	for _, rp := range p.fail {
		key := w.rowFields(p, rp)
		if seen[key] {
			continue // the same input reached twice
		}
		seen[key] = true
		name := names.make(rp.row.Status.String() + ":" + w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))
		w.comment("\t\t// ", "\t\t// ", rp.row)
		w.pf("\t\t{\n\t\t\tname: %s,\n", strconv.Quote(name))
		for _, i := range p.order() {
			w.pf("\t\t\t%s: %s,\n", p.fields[i], w.fieldLit(p, i, rp.vals[i]))
		}
		w.pf("\t\t\tfound: %s,\n", strconv.Quote(found(rp.row)))
		if recoverable(rp.row) {
			w.pf("\t\t\tpanics: true,\n")
		}
		w.pf("\t\t},\n")
	}
	for _, r := range carried {
		w.pf("\t\t%s,\n", r.text)
	}
	w.pf("\t}\n")
	w.pf("\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *%s.T) {\n", testing)
	w.pf("\t\t\tif %s.Getenv(%q) != \"1\" {\n", os, ReproduceEnv)
	skip := fmt.Sprintf("t.Skipf(\"dowse found: %%s\\nreproduce: %s=1 go test -run '^%s$/^%%s$'\", tt.found, tt.name)", ReproduceEnv, p.failName)
	if panics {
		w.pf("\t\t\t\tif !tt.panics {\n\t\t\t\t\t%s\n\t\t\t\t}\n", skip)
		w.pf("\t\t\t\tdefer func() {\n\t\t\t\t\tif recover() != nil {\n\t\t\t\t\t\t%s\n\t\t\t\t\t}\n\t\t\t\t}()\n", skip)
	} else {
		w.pf("\t\t\t\t%s\n", skip)
	}
	w.pf("\t\t\t}\n%s\t\t\t%s\n\t\t})\n\t}\n}\n", w.sandbox(p), w.call(p))
}

// recoverable reports whether a failing row is a panic the generated
// case can run up to and recover: a panic that escaped the target on the
// goroutine that called it (a crash of the process is status exit) and
// the only failure of the run (a case whose target also reported an
// error would fail the test).
func recoverable(row *Row) bool {
	return row.Status == rt.StatusPanic && len(row.Messages) == 1
}

func (w *writer) fuzzFailures(p *plan) {
	testing, os := w.imports.names["testing"], w.imports.names["os"]
	dir := path.Join("testdata", "fuzz", p.failName)
	w.doc(fmt.Sprintf("%s reruns the fuzz function of %s on the inputs in %s, on which dowse saw it fail. It skips, reporting the failures, unless %s=1 is set; then it runs and fails.", p.failName, p.t.Name, dir, ReproduceEnv))
	w.pf("//\n")
	var list strings.Builder
	seen := map[string]bool{}
	for _, rp := range p.fail {
		content, err := corpusFile(rp.vals)
		if err != nil {
			panic(err) // checked by addCorpus
		}
		file := corpusName(content)
		if seen[file] {
			continue
		}
		seen[file] = true
		w.comment("//   - "+file+": ", "//     ", rp.row)
		fmt.Fprintf(&list, "\n%s: %s", file, found(rp.row))
	}
	for _, file := range p.keptCorpus {
		w.pf("//   - %s: an earlier run found it failing\n", file)
		fmt.Fprintf(&list, "\n%s: found failing by an earlier run", file)
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "dowse found %d failing input(s) of %s in %s:%s", len(seen)+len(p.keptCorpus), p.t.Name, dir, list.String())
	fmt.Fprintf(&msg, "\nreproduce: %s=1 go test -run '^%s$' (one input: -run '^%s$/^NAME$')", ReproduceEnv, p.failName, p.failName)
	w.pf("func %s(f *%s.F) {\n", p.failName, testing)
	// Skipf with the message as an argument: a message that holds a %
	// (a failure's text) is not a format, which go vet would flag.
	w.pf("\tif %s.Getenv(%q) != \"1\" {\n\t\tf.Skipf(\"%%s\", %s)\n\t}\n", os, ReproduceEnv, strconv.Quote(msg.String()))
	w.pf("\t%s(f)\n}\n", p.t.Name)
}

// fieldLit renders the value of field i of a row; an isolated call site's
// stub also sets the site's variable as the table is built.
func (w *writer) fieldLit(p *plan, i int, v *value) string {
	lit := w.r.lit(v, false)
	first := len(p.fields) - len(p.t.Sandbox)
	if i < first {
		return lit
	}
	sv := p.t.Sandbox[i-first]
	return "func() " + w.r.typeString(p.t.Params[i].Type()) + " {\nf := " + lit + "\n" + w.sandboxQual(sv) + sv.Var + " = f\nreturn f\n}()"
}

// sandboxQual is the qualifier of the sandbox names of sv's package.
func (w *writer) sandboxQual(sv SandboxVar) string {
	if sv.Pkg.Path() != w.r.self {
		return w.imports.names[sv.Pkg.Path()] + "."
	}
	return ""
}

// sandboxOn renders the statements that start an isolated test: the
// packages' sandboxes on while the table is built (its values may be
// made by calls that reach isolated code) and off, with every site's
// variable reset, when the test ends.
func (w *writer) sandboxOn(p *plan) string {
	if len(p.t.Sandbox) == 0 {
		return ""
	}
	var lhs, set, reset []string
	seen := map[string]bool{}
	for _, sv := range p.t.Sandbox {
		sw := w.sandboxQual(sv) + sv.Switch
		if !seen[sw] {
			seen[sw] = true
			lhs, set, reset = append(lhs, sw), append(set, "true"), append(reset, "false")
		}
	}
	for _, sv := range p.t.Sandbox {
		lhs, reset = append(lhs, w.sandboxQual(sv)+sv.Var), append(reset, "nil")
	}
	l := strings.Join(lhs, ", ")
	return "\t" + strings.Join(lhs[:len(set)], ", ") + " = " + strings.Join(set, ", ") + "\n\tt.Cleanup(func() {\n\t\t" + l + " = " + strings.Join(reset, ", ") + "\n\t})\n"
}
