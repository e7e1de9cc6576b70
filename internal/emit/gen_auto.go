package emit

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// This file writes the table of an automatic target: its rows with the
// receiver, arguments, results and mock calls each asserts.

// autoTable writes the regression test of an automatic target: each row
// calls the function on one input per path dowse explored and compares
// the results with those it returned then (errors by message, "" for
// none; other results with reflect.DeepEqual).
func (w *writer) autoTable(p *plan) {
	testing := w.imports.names["testing"]
	what := "checks the results it returned then"
	if !p.compared() {
		what = "checks that it returns"
	}
	w.doc(fmt.Sprintf("%s calls %s on one input per path that dowse explored and %s.", p.testName, p.t.Name, what))
	w.pf("func %s(t *%s.T) {\n", p.testName, testing)
	w.pf("%s", w.sandboxOn(p))
	for _, v := range p.t.Restore {
		// The package state the target writes, restored when the test
		// ends, so that the tests after it see the package as it was.
		w.pf("\tt.Cleanup(func() func() { saved := %s; return func() { %s = saved } }())\n", v, v)
	}
	results := p.t.Results
	var after []int            // parameters compared after the call
	var observed []rt.Observer // methods called on parameters after the call
	if p.compared() && p.t.Layout != nil {
		after, observed = p.t.Layout.After, p.t.Layout.Observers
	} else {
		results = nil
	}
	wants := make([]string, len(results))
	gots := make([]string, len(results))
	isErr := make([]bool, len(results))
	count := map[bool]int{} // results that are errors, and others
	for i, r := range results {
		isErr[i] = namedAs(r.Type(), "", "error")
		count[isErr[i]]++
	}
	// Field names of the table: the parameters', then fresh ones for the
	// expected values (a parameter may be called want).
	taken := map[string]bool{"name": true}
	for _, f := range p.fields {
		taken[f] = true
	}
	fresh := func(name string) string {
		if taken[name] {
			base := name + "Result"
			name = base
			for n := 2; taken[name]; n++ {
				name = base + strconv.Itoa(n)
			}
		}
		taken[name] = true
		return name
	}
	var extra []string
	for i, r := range results {
		want, got, typ := "want", "got", w.r.typeString(r.Type())
		if isErr[i] {
			want, got, typ = "wantErr", "err", "string"
		}
		if count[isErr[i]] > 1 {
			want, got = want+strconv.Itoa(i+1), got+strconv.Itoa(i+1)
		}
		want = fresh(want)
		wants[i], gots[i] = want, got
		extra = append(extra, want+" "+typ)
	}
	// The states after the call are compared in the rows that report
	// them (a state deeper or longer than the layout's bounds is not).
	withAfter, withoutAfter := false, false
	for _, rp := range p.pass {
		if rp.outs != nil && len(after)+len(observed) > 0 {
			if len(rp.outs) > len(results) {
				withAfter = true
			} else {
				withoutAfter = true
			}
		}
	}
	if !withAfter {
		after, observed = nil, nil
	}
	afterWants := make([]string, len(after))
	for k, i := range after {
		f := p.fields[i]
		afterWants[k] = fresh("want" + strings.ToUpper(f[:1]) + f[1:])
		extra = append(extra, afterWants[k]+" "+w.r.typeString(p.t.Params[i].Type())+" // after the call")
	}
	observedWants := make([]string, len(observed))
	for k, o := range observed {
		f := p.fields[o.Param]
		observedWants[k] = fresh("want" + strings.ToUpper(f[:1]) + f[1:] + o.Method)
		res := observerResult(p.t.Params[o.Param].Type(), o.Method)
		extra = append(extra, observedWants[k]+" "+w.r.typeString(res.Type())+" // "+f+"."+o.Method+"() after the call")
	}
	// The calls the parameters' mocks recorded are compared for the
	// parameters that hold a recording mock on some row.
	var callParams []int
	for i := range p.fields {
		for _, rp := range p.pass {
			if i < len(rp.calls) && len(rp.calls[i]) > 0 {
				callParams = append(callParams, i)
				break
			}
		}
	}
	callWants := make([]string, len(callParams))
	for k, i := range callParams {
		f := p.fields[i]
		callWants[k] = fresh("want" + strings.ToUpper(f[:1]) + f[1:] + "Calls")
		extra = append(extra, callWants[k]+" []string // the calls "+f+" recorded")
	}
	// A row is unchecked when its results were not reported, or its
	// results and calls differed under go test.
	uncheckedRow := func(rp rowPlan) bool {
		return rp.outs == nil && len(results)+len(after)+len(observed) > 0 || len(callParams) > 0 && rp.row.Unchecked
	}
	unchecked := false
	for _, rp := range p.pass {
		if uncheckedRow(rp) {
			unchecked = true
		}
	}
	uncheckedField, afterUncheckedField := "unchecked", "afterUnchecked"
	if unchecked {
		uncheckedField = fresh(uncheckedField)
		extra = append(extra, uncheckedField+" bool // results and calls not compared")
	}
	afterUnchecked := withAfter && withoutAfter
	if afterUnchecked {
		afterUncheckedField = fresh(afterUncheckedField)
		extra = append(extra, afterUncheckedField+" bool // the state after the call not compared")
	}
	w.tableHead(p, strings.Join(extra, "\n\t\t"))
	names := uniqueNames{}
	seen := map[string]bool{}
	for _, rp := range p.pass {
		fields := w.rowFields(p, rp)
		if seen[fields] {
			continue
		}
		seen[fields] = true
		name := names.make(w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))
		w.g.cases = append(w.g.cases, Case{Target: p.t.Name, Test: p.testName, Name: name, Row: rp.index})
		var parts []string
		for _, i := range p.order() {
			parts = append(parts, p.fields[i]+": "+w.fieldLit(p, i, rp.vals[i]))
		}
		switch {
		case uncheckedRow(rp):
			parts = append(parts, uncheckedField+": true")
		case rp.outs != nil && len(results)+len(after)+len(observed) > 0:
			for i, o := range rp.outs {
				switch {
				case i >= len(results)+len(after):
					if k := i - len(results) - len(after); k < len(observed) {
						parts = append(parts, observedWants[k]+": "+w.r.lit(o, false))
					}
				case i >= len(results):
					if len(after) > 0 {
						parts = append(parts, afterWants[i-len(results)]+": "+w.r.lit(o, false))
					}
				case isErr[i]:
					parts = append(parts, wants[i]+": "+quoteString(o.str))
				default:
					parts = append(parts, wants[i]+": "+w.r.lit(o, false))
				}
			}
		}
		if !uncheckedRow(rp) {
			for k, i := range callParams {
				if i < len(rp.calls) && len(rp.calls[i]) > 0 {
					parts = append(parts, callWants[k]+": "+stringsLit(rp.calls[i]))
				}
			}
		}
		if afterUnchecked && rp.outs != nil && len(rp.outs) == len(results) {
			parts = append(parts, afterUncheckedField+": true")
		}
		line := "{name: " + quoteString(name)
		if len(parts) > 0 {
			line += ", " + strings.Join(parts, ", ")
		}
		line += "},"
		if len(line) <= rowWidth && !strings.Contains(line, "\n") {
			w.pf("\t\t%s\n", line)
			continue
		}
		w.pf("\t\t{\n\t\t\tname: %s,\n", quoteString(name))
		for _, part := range parts {
			w.pf("\t\t\t%s,\n", part)
		}
		w.pf("\t\t},\n")
	}
	w.pf("\t}\n")
	w.pf("\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *%s.T) {\n", testing)
	w.pf("%s", w.sandbox(p))
	call := w.call(p)
	if len(results)+len(after)+len(observed)+len(callParams) == 0 {
		w.pf("\t\t\t%s\n\t\t})\n\t}\n}\n", call)
		return
	}
	if len(results) == 0 {
		w.pf("\t\t\t%s\n", call)
	} else {
		w.pf("\t\t\t%s := %s\n", strings.Join(gots, ", "), call)
	}
	indent := "\t\t\t"
	if unchecked {
		w.pf("\t\t\tif tt.%s {\n\t\t\t\treturn\n\t\t\t}\n", uncheckedField)
	}
	shown := strings.Replace(call, "tt.", "", -1)
	for i := range results {
		if isErr[i] {
			w.pf("%sif (%s != nil) != (tt.%s != \"\") || %s != nil && %s.Error() != tt.%s {\n", indent, gots[i], wants[i], gots[i], gots[i], wants[i])
			w.pf("%s\tt.Errorf(\"%s: error %%v, want %%q\", %s, tt.%s)\n%s}\n", indent, escape(shown), gots[i], wants[i], indent)
			continue
		}
		w.pf("%sif !%s.DeepEqual(%s, tt.%s) {\n", indent, w.imports.names["reflect"], gots[i], wants[i])
		w.pf("%s\tt.Errorf(\"%s = %%#v, want %%#v\", %s, tt.%s)\n%s}\n", indent, escape(shown), gots[i], wants[i], indent)
	}
	callsOf := mock.DefaultHelpers.CallsOf
	if len(callParams) > 0 {
		// The package's name of the helper (mock.Names): every mock
		// type of the package has the same.
		mine := map[string]*mock.Type{}
		for _, rp := range p.pass {
			for _, v := range rp.vals {
				mocksOf(v, mine)
			}
		}
		for _, n := range slices.Sorted(maps.Keys(mine)) {
			callsOf = mine[n].Helpers().CallsOf
			break
		}
	}
	for k, i := range callParams {
		f := p.fields[i]
		if strs, ok := w.imports.names["strings"]; ok && !langAtLeast(w.g.pkg, "go1.18") {
			// No generic slices.Equal: the calls joined (a call is
			// never empty and holds no newline).
			w.pf("%sif got := %s(tt.%s); %s.Join(got, \"\\n\") != %s.Join(tt.%s, \"\\n\") {\n", indent, callsOf, f, strs, strs, callWants[k])
		} else {
			w.pf("%sif got := %s(tt.%s); !%s.Equal(got, tt.%s) {\n", indent, callsOf, f, w.imports.names["slices"], callWants[k])
		}
		w.pf("%s\tt.Errorf(\"%s: the calls of %s are %%q, want %%q\", got, tt.%s)\n%s}\n", indent, escape(shown), f, callWants[k], indent)
	}
	if afterUnchecked && len(after)+len(observed) > 0 {
		w.pf("%sif tt.%s {\n%s\treturn\n%s}\n", indent, afterUncheckedField, indent, indent)
	}
	for k, i := range after {
		f := p.fields[i]
		w.pf("%sif !%s.DeepEqual(tt.%s, tt.%s) {\n", indent, w.imports.names["reflect"], f, afterWants[k])
		w.pf("%s\tt.Errorf(\"after %s: %s = %%#v, want %%#v\", tt.%s, tt.%s)\n%s}\n", indent, escape(shown), f, f, afterWants[k], indent)
	}
	for k, o := range observed {
		f := p.fields[o.Param]
		w.pf("%sif got := tt.%s.%s(); got != tt.%s {\n", indent, f, o.Method, observedWants[k])
		w.pf("%s\tt.Errorf(\"after %s: %s.%s() = %%#v, want %%#v\", got, tt.%s)\n%s}\n", indent, escape(shown), f, o.Method, observedWants[k], indent)
	}
	w.pf("\t\t})\n\t}\n}\n")
}
