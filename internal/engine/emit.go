package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/rt"
)

// emitRows turns a report into the rows to write: one per distinct path
// that ended in pass, fail or panic, then the runs that ended their worker
// (exit, time-out), which the generated file keeps in its failure table.
// Panic positions are made relative to the module root, so that generated
// files do not depend on where the module is checked out.
//
// Rows that made isolated calls need the sandbox to replay and are left
// out here (the isolated file has those of targets with sandbox inputs);
// for a target with isolated call sites (own >= 0, the number of leaves
// of its own parameters), the others are written without the sandbox's
// leaves.
func emitRows(rep *explore.Report, root string, own int) []emit.Row {
	var rows []emit.Row
	trim := func(in []rt.Value) []rt.Value {
		if own >= 0 && own < len(in) {
			return in[:own:own]
		}
		return in
	}
	for _, r := range rep.Rows {
		if r.Isolated > 0 {
			continue // replays only with the sandbox: the isolated file's
		}
		rows = append(rows, emit.Row{Inputs: trim(r.Inputs), Status: r.Status, Messages: r.Messages, PanicAt: slashRel(root, r.PanicAt), PathCondition: r.PathCondition, Outputs: r.Outputs, MockCalls: r.MockCalls})
	}
	for _, f := range rep.Failures {
		if f.Row < 0 && f.Isolated == 0 {
			rows = append(rows, emit.Row{Inputs: trim(f.Inputs), Status: f.Status, Messages: f.Messages, PanicAt: slashRel(root, f.PanicAt), PathCondition: f.PathCondition})
		}
	}
	return rows
}

// rowInputs are the inputs of the rows of r's report as the generated
// test writes them, "b: []byte(\"B\")", aligned with the report's rows
// ("" where not known): emitRows made r.Rows of the report's rows in
// order, leaving out those that made isolated calls.
func rowInputs(r *Result) []string {
	if r.Report == nil || len(r.Literals) == 0 {
		return nil
	}
	out := make([]string, len(r.Report.Rows))
	j := 0
	for i, row := range r.Report.Rows {
		if row.Isolated > 0 {
			continue
		}
		if j < len(r.Literals) && r.Literals[j] != nil {
			var parts []string
			for k, lit := range r.Literals[j] {
				name := fmt.Sprintf("p%d", k)
				if k < len(r.Target.Params) && r.Target.Params[k].Name() != "" && r.Target.Params[k].Name() != "_" {
					name = r.Target.Params[k].Name()
				}
				parts = append(parts, name+": "+lit)
			}
			out[i] = strings.Join(parts, ", ")
		}
		j++
	}
	return out
}

// slashRel returns the position p relative to dir, with forward slashes,
// if it lies beneath dir.
func slashRel(dir, p string) string {
	return filepath.ToSlash(output.Rel(dir, p))
}

// emit writes the generated file of every test file that declares
// targets. A file is only written if all its targets were selected and
// explored without an error of the machinery, since the generated file is
// replaced as a whole.
func (g *runner) emit(p *load.Package, results []*Result, selected map[*load.Target]bool, verify verifier, rerun rerunner) {
	type fileKey struct {
		external bool
		name     string
	}
	byResult := map[*load.Target]*Result{}
	for _, r := range results {
		byResult[r.Target] = r
	}
	var keys []fileKey
	files := map[fileKey][]*load.Target{}
	for _, t := range p.Targets {
		k := fileKey{t.External, filepath.Base(t.Pos.Filename)}
		if files[k] == nil {
			keys = append(keys, k)
		}
		files[k] = append(files[k], t)
	}
	g.removeStale(p)
	var autoFiles []*written // files with rows of automatic targets
	var all []*written
	before := generatedFiles(p.Dir)
	// Every mock type the targets may use is declared before the test
	// files are written, so that a stop between two files (a second
	// interrupt, a kill) leaves tests that compile.
	g.writeMocks(p, byResult, true)
	for _, k := range keys {
		// Targets that -run does not select, whose results are cached,
		// or that could not be explored, keep what an earlier run
		// generated for them.
		var regen []*load.Target
		var keep []string
		for _, t := range files[k] {
			if r := byResult[t]; !selected[t] || r == nil || r.Cached || r.Err != nil && t.Err == nil {
				keep = append(keep, t.Name)
				continue
			}
			regen = append(regen, t)
		}
		if !anyRows(regen, byResult) && len(regen) < len(files[k]) {
			continue // nothing new to write
		}
		w := g.writeFile(p, k.external, k.name, regen, keep, byResult)
		if w != nil {
			all = append(all, w)
		}
		if w != nil && len(w.res.Cases) > 0 {
			autoFiles = append(autoFiles, w)
		}
		g.writeIsolatedFile(p, k.external, k.name, regen, keep, byResult)
	}
	g.writeMocks(p, byResult, false)
	if verify != nil && g.changedTests(p.Dir) {
		err := g.confirmRows(autoFiles, byResult, verify)
		if errors.Is(err, errNotBuilt) && g.dropCarried(all, byResult) {
			// Failing rows carried from the earlier file may no
			// longer fit the target (a parameter's type changed).
			if err = g.confirmRows(autoFiles, byResult, verify); err == nil {
				g.warnf("warning: %s: the generated tests did not build with the failing rows kept from the earlier files (a target's parameters changed?): written without them", p.Path)
			}
		}
		if errors.Is(err, errConfirmStopped) {
			g.warnf("%s: the stop came before the generated tests were confirmed to build and pass: the files they replace are put back (run again to write them)", p.Path)
			g.revert(p.Dir, before, byResult, err)
			return
		}
		if err != nil {
			g.warnf("warning: %v", err)
			g.revert(p.Dir, before, byResult, err)
			return
		}
	}
	if rerun != nil {
		g.dropFixed(all, byResult, rerun)
	}
	g.writeMocks(p, byResult, false) // rows were dropped
}

// writeMocks writes, per package variant, the file declaring the mock
// types its generated tests use (emit.WriteMocks), or with all every mock
// type its targets may use, and lists it among the files of the targets
// whose rows use mock types.
func (g *runner) writeMocks(p *load.Package, byResult map[*load.Target]*Result, all bool) {
	for _, external := range []bool{false, true} {
		variant := p.Test
		if external {
			variant = p.XTest
		} else if variant == nil {
			variant = p.Plain
		}
		if variant == nil || variant.Types == nil {
			continue
		}
		known := map[string]bool{}
		f := emit.MockFile{Pkg: variant.Types, Dir: p.Dir, External: external, All: all}
		for _, t := range p.Targets {
			if t.External != external {
				continue
			}
			for _, m := range t.Mocks {
				if !known[m.Name] {
					known[m.Name] = true
					f.Mocks = append(f.Mocks, m)
				}
			}
		}
		name := filepath.Join(p.Dir, emit.MockFileName)
		if external {
			name = filepath.Join(p.Dir, emit.MockFileNameX)
		}
		if all {
			data, err := os.ReadFile(name)
			g.mocksBefore[name] = fileState{data, err == nil}
		}
		changed, err := emit.WriteMocks(f)
		if err != nil {
			g.warnf("warning: %v", err)
			g.stats.Errors++
			continue
		}
		if all {
			for _, c := range changed {
				g.changed[c] = true // to be put back if the package's files are
			}
			continue
		}
		if prev, ok := g.mocksBefore[name]; ok {
			// Changed or not compared with the file before this run,
			// not with the one declaring every mock type.
			changed = nil
			delete(g.changed, name)
			if now, err := os.ReadFile(name); (err == nil) != prev.exists || !bytes.Equal(now, prev.data) {
				changed = []string{name}
			}
		}
		for _, c := range changed {
			g.changed[c] = true
		}
		for _, t := range p.Targets {
			r := byResult[t]
			if t.External != external || r == nil || len(r.Mocks) == 0 || slices.Contains(r.Files, name) {
				continue
			}
			r.Files = append(r.Files, name)
			sort.Strings(r.Files)
			if len(changed) > 0 {
				r.Changed = append(r.Changed, name)
				sort.Strings(r.Changed)
			}
		}
	}
}

// fileState is what a file held: its content, if it existed.
type fileState struct {
	data   []byte
	exists bool
}

// changedTests reports whether this run changed a generated test file
// in dir that plain go test builds (not an isolated one).
func (g *runner) changedTests(dir string) bool {
	for f := range g.changed {
		if filepath.Dir(f) == dir && strings.HasSuffix(f, "_test.go") && !strings.HasSuffix(f, "_isolated_test.go") {
			return true
		}
	}
	return false
}

// generatedFiles reads dowse's generated test files in dir, by path.
func generatedFiles(dir string) map[string][]byte {
	out := map[string][]byte{}
	names, _ := filepath.Glob(filepath.Join(dir, "*_dowse*_test.go"))
	mocks, _ := filepath.Glob(filepath.Join(dir, "dowse_mocks*_test.go"))
	for _, n := range append(names, mocks...) {
		if data, err := os.ReadFile(n); err == nil {
			out[n] = data
		}
	}
	return out
}

// revert puts the generated test files in dir that this run changed
// back as they were before it (removing those it created; stale files
// it removed stay removed): the generated tests did not build or did not
// pass, which is a bug in dowse, and such a file must not be left in the
// user's package. The targets whose files were put back report why
// (cause).
func (g *runner) revert(dir string, before map[string][]byte, byResult map[*load.Target]*Result, cause error) {
	reverted := map[string]bool{}
	for f := range g.changed {
		if filepath.Dir(f) != dir || !strings.HasSuffix(f, "_test.go") {
			continue
		}
		var err error
		if old, ok := before[f]; ok {
			err = writeReplacing(f, old)
		} else if err = os.Remove(f); errors.Is(err, fs.ErrNotExist) {
			continue // a stale file removed
		}
		if err != nil {
			g.warnf("warning: restoring %s: %v", f, err)
			continue
		}
		delete(g.changed, f)
		reverted[f] = true
	}
	for _, r := range byResult {
		if r.Report == nil || r.Err != nil || !slices.ContainsFunc(r.Changed, func(f string) bool { return reverted[f] }) {
			continue
		}
		if errors.Is(cause, errConfirmStopped) {
			r.Err = errors.New("explored, but stopped before its generated tests were confirmed: the previous file was kept")
		} else {
			r.Err = fmt.Errorf("explored, but %v (a bug in dowse; see the warning above): the previous file was kept", cause)
		}
		r.Changed = nil
		g.stats.Errors++
	}
}

// writeReplacing replaces the file name by content atomically (a
// temporary file in its directory, renamed over it).
func writeReplacing(name string, content []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".dowse-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

func anyRows(targets []*load.Target, byResult map[*load.Target]*Result) bool {
	for _, t := range targets {
		if r := byResult[t]; r != nil && r.Report != nil && (len(r.Report.Rows) > 0 || len(r.Report.Failures) > 0) {
			return true
		}
	}
	return false
}

// A rerunner runs subtests of a generated failures test with
// DOWSE_REPRODUCE=1 and returns those that passed.
type rerunner func(test string, subs []string) ([]string, error)

// dropFixed runs again the failing rows carried over from an earlier
// run (emit.Result.Carried) that ended with a failure or a panic, as
// plain go test runs them with DOWSE_REPRODUCE=1, and rewrites the files
// without those that passed: only a run that shows a row no longer
// fails removes it. Rows that ended their worker or timed out, and rows
// that could not be run, stay.
func (g *runner) dropFixed(files []*written, byResult map[*load.Target]*Result, rerun rerunner) {
	for _, w := range files {
		drop := map[string][]string{}
		for _, t := range w.targets {
			r := byResult[t]
			if r == nil || len(r.Kept) == 0 || r.FailureTest == "" {
				continue
			}
			var subs []string
			for _, name := range r.Kept {
				// Corpus files of a fuzz target's failures are run
				// too: go test names their subtests by file.
				if strings.HasPrefix(name, "fail:") || strings.HasPrefix(name, "panic:") || strings.HasPrefix(name, emit.CorpusPrefix) {
					subs = append(subs, name)
				}
			}
			if len(subs) == 0 {
				continue
			}
			passed, err := rerun(r.FailureTest, subs)
			if err != nil {
				g.warnf("warning: running the failing rows of %s again: %v", t.Name, err)
				continue
			}
			if len(passed) > 0 {
				drop[t.Name] = passed
			}
		}
		if len(drop) == 0 {
			continue
		}
		w.f.Drop = drop
		res, err := emit.Write(w.f, emit.Options{})
		g.finishFile(w.targets, res, err, byResult)
		w.res = res
		for _, t := range w.targets {
			if r := byResult[t]; r != nil {
				r.Dropped = drop[t.Name]
			}
		}
	}
}

// dropCarried rewrites the files that carried failing rows over from
// the files they replaced without them; it reports whether there were
// any.
func (g *runner) dropCarried(files []*written, byResult map[*load.Target]*Result) bool {
	carried := false
	for _, w := range files {
		drop := map[string][]string{}
		for _, t := range w.targets {
			if r := byResult[t]; r != nil && len(r.Kept) > 0 {
				drop[t.Name] = append(slices.Clone(w.f.Drop[t.Name]), r.Kept...)
			}
		}
		if len(drop) == 0 {
			continue
		}
		carried = true
		w.f.Drop = drop
		res, err := emit.Write(w.f, emit.Options{})
		g.finishFile(w.targets, res, err, byResult)
		w.res = res
	}
	return carried
}

// A verifier runs generated test functions and returns the subtests that
// failed, by test function.
type verifier func(tests []string) (map[string][]string, error)

// maxConfirmRounds bounds the rewrites of confirmRows.
const maxConfirmRounds = 4

// errNotBuilt and errNotPassing say why confirmRows gave up;
// errConfirmStopped that a verifier was cut short by the run's stop.
var (
	errNotBuilt       = errors.New("the generated tests did not build")
	errNotPassing     = errors.New("the generated tests did not pass under plain go test")
	errConfirmStopped = errors.New("the confirmation of the generated tests was cut short by the stop")
)

// confirmRows runs the rows just written for automatic targets, all the
// package's generated tests together as plain go test would, and rewrites
// the files until they pass: a row whose results differ there (package
// state that other tests change, time, randomness the second run in the
// worker did not show) first keeps its call but no longer compares
// results; a row that still fails (it panics, say) is left out. The rows
// concerned are counted as unstable. It returns an error wrapping
// errNotBuilt if the tests could not be run at all (they do not build),
// and one wrapping errNotPassing if they still fail after the rewrites
// (a failure no row accounts for).
func (g *runner) confirmRows(files []*written, byResult map[*load.Target]*Result, verify verifier) error {
	for round := 0; ; round++ {
		var tests []string
		for _, w := range files {
			for _, c := range w.res.Cases {
				if !slices.Contains(tests, c.Test) {
					tests = append(tests, c.Test)
				}
			}
		}
		failing, err := verify(tests) // with no tests, a build

		if errors.Is(err, errConfirmStopped) {
			return err
		}
		if err != nil {
			return fmt.Errorf("%w: %v", errNotBuilt, err)
		}
		if len(failing) == 0 {
			return nil
		}
		if round == maxConfirmRounds {
			return fmt.Errorf("%w: %v", errNotPassing, failing)
		}
		changedAny := false
		for _, w := range files {
			byName := map[string]*Result{}
			for _, t := range w.targets {
				byName[t.Name] = byResult[t]
			}
			drop := map[*Result]map[int]bool{}
			changed := false
			for _, c := range w.res.Cases {
				if !slices.Contains(failing[c.Test], c.Name) {
					continue
				}
				r := byName[c.Target]
				if row := &r.Rows[c.Row]; round == 0 && (row.Outputs != nil || row.MockCalls != nil) {
					row.Outputs, row.MockCalls, row.Unchecked = nil, nil, true
				} else {
					if drop[r] == nil {
						drop[r] = map[int]bool{}
					}
					drop[r][c.Row] = true
				}
				r.Report.Unstable++
				changed = true
			}
			if !changed {
				continue
			}
			changedAny = true
			for r, rows := range drop {
				var kept []emit.Row
				for i, row := range r.Rows {
					if !rows[i] {
						kept = append(kept, row)
					}
				}
				r.Rows = kept
			}
			for i := range w.f.Targets {
				if r := byName[w.f.Targets[i].Name]; r != nil && r.Report != nil {
					w.f.Targets[i].Rows = r.Rows
				}
			}
			res, err := emit.Write(w.f, emit.Options{})
			g.finishFile(w.targets, res, err, byResult)
			w.res = res
		}
		if !changedAny {
			return fmt.Errorf("%w: %v", errNotPassing, failing)
		}
	}
}

// written is a generated file, kept for rewriting it.
type written struct {
	f       emit.File
	targets []*load.Target
	res     emit.Result
}

func (g *runner) writeFile(p *load.Package, external bool, name string, targets []*load.Target, keep []string, byResult map[*load.Target]*Result) *written {
	variant := p.Test
	if external {
		variant = p.XTest
	}
	if variant == nil {
		variant = p.Plain // automatic targets of a package without tests
	}
	f := emit.File{Pkg: variant.Types, Dir: p.Dir, SourceFile: name, Keep: keep}
	for _, t := range targets {
		layout, own := ownLayout(t)
		et := emit.Target{Name: t.Name, Fuzz: t.Kind == load.KindFuzz, Params: t.Params, Variadic: t.Variadic, Layout: layout, Dyn: t.Dyn, Mocks: t.Mocks, Vars: t.Vars}
		if t.Kind.Auto() {
			et.Auto, et.Results, et.Method = true, t.Results, t.Kind == load.KindMethod
			et.Call, et.Funcs, et.Restore = t.Expr, t.Funcs, t.Writes
			if et.Method {
				et.Call = t.Expr[strings.LastIndex(t.Expr, ".")+1:]
			}
		}
		if r := byResult[t]; r.Report != nil {
			r.Rows = emitRows(r.Report, p.Module.Dir, own)
			et.Rows = r.Rows
			r.Literals = emit.Literals(variant.Types, &et)
		}
		f.Targets = append(f.Targets, et)
	}
	res, err := emit.Write(f, emit.Options{})
	if !g.finishFile(targets, res, err, byResult) {
		return nil
	}
	// Compared with the file this run replaced (later rewrites compare
	// with the one it wrote).
	for _, t := range targets {
		if r := byResult[t]; r.Report != nil {
			r.Behaviour = res.Behaviour[t.Name]
		}
	}
	return &written{f: f, targets: targets, res: res}
}

// finishFile records what writing a file gave each of its targets; it
// reports false if the file could not be written at all.
func (g *runner) finishFile(targets []*load.Target, res emit.Result, err error, byResult map[*load.Target]*Result) bool {
	var terrs []*emit.TargetError
	if err != nil {
		var other bool
		if terrs, other = targetErrors(err); other {
			g.warnf("%v", err)
			g.stats.Errors++
			// Each explored target says so in its summary (JSON
			// "error"), as when its own rows cannot be written.
			for _, t := range targets {
				if r := byResult[t]; r.Report != nil && r.Err == nil {
					r.Err = fmt.Errorf("explored, but its tests could not be written: %w", err)
				}
			}
			return false
		}
	}
	for _, f := range res.Changed {
		g.changed[f] = true
	}
	failed := map[string]error{}
	for _, te := range terrs {
		failed[te.Target] = te.Err
	}
	omitted := map[string]int{}
	for _, o := range res.Omitted {
		omitted[o.Target]++
	}
	for _, t := range targets {
		r := byResult[t]
		if r.Report == nil {
			continue
		}
		if err, ok := failed[t.Name]; ok {
			r.Err = fmt.Errorf("explored, but its tests could not be written: %w", err)
			continue
		}
		r.Tests = len(r.Rows) - omitted[t.Name]
		fail := res.FailureTests[t.Name]
		if fail == "" {
			fail = failureTestName(t)
		}
		r.Files = targetFiles(t, r, fail, res.Files)
		r.Changed = targetFiles(t, r, fail, res.Changed)
		r.Mocks = res.Mocks[t.Name]
		r.Kept = res.Carried[t.Name]
		r.FailureTest = ""
		if hasFailureRow(r.Rows) || len(r.Kept) > 0 {
			r.FailureTest = fail
		}
	}
	return true
}

// targetErrors finds the *emit.TargetError values in err; other reports
// whether err holds anything else.
func targetErrors(err error) (tes []*emit.TargetError, other bool) {
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case *emit.TargetError:
			tes = append(tes, x)
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		case interface{ Unwrap() error }:
			if u := x.Unwrap(); u != nil {
				walk(u)
			} else {
				other = true
			}
		default:
			other = true
		}
	}
	walk(err)
	return tes, other
}

func hasFailureRow(rows []emit.Row) bool {
	for _, r := range rows {
		switch r.Status {
		case rt.StatusFail, rt.StatusPanic, rt.StatusExit, rt.StatusTimeout:
			return true
		}
	}
	return false
}

// failureTestName is the generated test holding t's failing inputs (see
// docs/emit.md) unless the package declares that name itself (then emit
// picks another, emit.Result.FailureTests).
func failureTestName(t *load.Target) string {
	if t.Kind == load.KindFuzz {
		return "FuzzDowse" + strings.TrimPrefix(t.Name, "Fuzz") + "Failures"
	}
	return "TestDowse" + emit.TestIdent(t.Name) + "Failures"
}

// targetFiles picks the files of one target out of the files written for
// its source file: the generated test file if the target has rows, and its
// corpus files (fail names its failures' fuzz target).
func targetFiles(t *load.Target, r *Result, fail string, files []string) []string {
	var out []string
	corpus := []string{
		string(filepath.Separator) + filepath.Join("testdata", "fuzz", t.Name) + string(filepath.Separator),
		string(filepath.Separator) + filepath.Join("testdata", "fuzz", fail) + string(filepath.Separator),
	}
	for _, f := range files {
		switch {
		case strings.HasSuffix(f, ".go"):
			if len(r.Rows) > 0 {
				out = append(out, f)
			}
		case t.Kind == load.KindFuzz && (strings.Contains(f, corpus[0]) || strings.Contains(f, corpus[1])):
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
