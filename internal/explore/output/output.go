// Package output presents what dowse gen found for each target: as text
// for people (text.go) or as a stream of JSON objects for programs
// (json.go). Results stream through a Handler, one Target at a time.
package output

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dowse-go/dowse/internal/build"
	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// Handler receives the results of dowse gen, one target at a time, in a
// deterministic order.
type Handler interface {
	Target(t *Target) error
	// Flush is called once at the end.
	Flush() error
}

// Target is the summary of one target. Its JSON form is the -json output
// of dowse gen; fields are only ever added.
type Target struct {
	Package  string `json:"package"`
	Target   string `json:"target"`
	Kind     string `json:"kind"`     // "put", "fuzz", or for automatic targets "func" or "method"
	Position string `json:"position"` // file:line of the declaration
	// Error says why the target was not explored (an unsupported
	// parameter type, a failed build); the counts are then zero.
	Error string `json:"error,omitempty"`
	// Skipped says why an automatic target was not explored (a parameter
	// dowse cannot build yet): expected, not an error.
	Skipped string `json:"skipped,omitempty"`

	Runs     int       `json:"runs"`
	Paths    int       `json:"paths"` // distinct feasible paths, including those ending in skip, failure or panic
	Tests    int       `json:"tests"` // rows emitted
	Failures []Failure `json:"failures"`
	// Findings are the failures grouped by cause (Failure.Finding): one
	// per distinct way a run failed, with its smallest input and the
	// number of failing inputs that reach it.
	Findings []Finding `json:"findings,omitempty"`
	// FailuresOmitted counts the failing paths of a PUT or fuzz target
	// beyond the first explore.MaxFailures, which are not listed or
	// written.
	FailuresOmitted int        `json:"failures_omitted,omitempty"`
	Unsolved        []Unsolved `json:"unsolved,omitempty"`
	// BoundLimited lists branches that only inputs longer than -max-len
	// reach (the verdict holds for the bound; these say what to raise).
	BoundLimited []BoundLimited `json:"bound_limited,omitempty"`
	Coverage     Coverage       `json:"coverage"`
	Statuses     map[string]int `json:"statuses,omitempty"` // runs by ending

	StopReason string   `json:"stop_reason"`
	Exhaustive bool     `json:"exhaustive"`
	Incomplete []string `json:"incomplete,omitempty"` // every reason it is not exhaustive
	// Recursion names the function that was deep on the call stack when
	// the branch bound stopped runs (reason "recursion-depth").
	Recursion *Recursion `json:"recursion,omitempty"`
	Bounds    Bounds     `json:"bounds"`

	ElapsedSeconds float64 `json:"elapsed_seconds"`
	SolverSeconds  float64 `json:"solver_seconds"`
	TargetSeconds  float64 `json:"target_seconds"` // time the runs spent in the target itself
	SolverQueries  int     `json:"solver_queries"`
	CacheHits      int     `json:"cache_hits"`
	// MutationRuns counts the runs of mutated inputs, after the concolic
	// search had nothing left to expand, and MutationPaths the distinct
	// paths they found first (the rest of the paths the solver found).
	MutationRuns  int `json:"mutation_runs,omitempty"`
	MutationPaths int `json:"mutation_paths,omitempty"`
	// LengthFreeRuns counts the runs of inputs solved for without the
	// conditions on lengths alone of an infeasible query's prefix (a
	// loop's exit that pinned a length), LengthFreePaths the paths they
	// found first.
	LengthFreeRuns  int `json:"length_free_runs,omitempty"`
	LengthFreePaths int `json:"length_free_paths,omitempty"`
	// GoFuzz tells what Go's fuzzer did in the hybrid phase of a fuzz
	// target (absent if it did not run).
	GoFuzz *GoFuzz `json:"go_fuzz,omitempty"`
	// BuildCrashes counts the runs whose worker crashed or hung while
	// building an input with the package's constructors and methods:
	// those inputs are rejected, not failures.
	BuildCrashes int `json:"build_crashes,omitempty"`
	// ResourceBounded counts the runs that ended their worker on a
	// resource bound (run-timeout, max-memory, worker-killed in
	// incomplete): bounds of the verdict, not failures.
	ResourceBounded int      `json:"resource_bounded,omitempty"`
	Divergences     int      `json:"divergences"`
	DivergenceSites []string `json:"divergence_sites,omitempty"` // positions of the first few
	Concretizations int      `json:"concretizations"`
	// ConcretizedAt names the first few distinct places and reasons:
	// "hashtable.go:44:20: symbolic index or length".
	ConcretizedAt []string `json:"concretized_at,omitempty"`
	// UnstableRows counts the rows of an automatic target whose results
	// differed when run again (time, randomness): not asserted.
	UnstableRows int      `json:"unstable_rows,omitempty"`
	Errors       []string `json:"errors,omitempty"`    // internal errors during exploration
	Files        []string `json:"files"`               // generated files
	Unchanged    []string `json:"unchanged,omitempty"` // those of Files that already had this content
	// KeptFailures are the case names of failing rows an earlier run
	// wrote that this run did not find again (other bounds, seed or
	// tags): they stay in the failures table (FailureTest).
	// DroppedFailures are those removed: run again, they passed.
	KeptFailures []string `json:"kept_failures,omitempty"`
	// BehaviourChanged are the rows of an automatic target whose inputs
	// the replaced generated file had with other expectations: written
	// with the new ones, listed for the user to judge.
	BehaviourChanged []BehaviourChange `json:"behaviour_changed,omitempty"`
	DroppedFailures  []string          `json:"dropped_failures,omitempty"`
	FailureTest      string            `json:"failure_test,omitempty"`
	// Budget says how the whole-run budget (-budget) treated the
	// target (nil: no budget).
	Budget *Budget `json:"budget,omitempty"`
	// Resumed says that the search continued where an earlier run's
	// budget or stop (SIGINT, SIGTERM) cut it short (explore.Resume);
	// Runs and Paths count that run's work too.
	Resumed *Resumed `json:"resumed,omitempty"`
	// Cached says that the target was not explored again: nothing it
	// depends on changed since the run whose summary this is, and its
	// generated files were kept as they are.
	Cached bool `json:"cached,omitempty"`

	// MockTypes are the generated types the target's rows use
	// (docs/mocks.md); TypeConstraints are the constraints on the
	// dynamic types of its interface inputs that dowse derived from the
	// package's code (asserted interfaces, tags, reflection), each with
	// whether some row meets it.
	MockTypes       []MockType       `json:"mock_types,omitempty"`
	TypeConstraints []TypeConstraint `json:"type_constraints,omitempty"`
	// Isolation reports the isolation sandbox of the target's package
	// (docs/isolate.md); nil when nothing of it calls another package's
	// code or the sandbox is off.
	Isolation *Isolation `json:"isolation,omitempty"`

	// What the HTML report draws (report.go, docs/report.md): every
	// branch site of the target's binary with what became of its
	// outcomes, and the rows.
	Branches []BranchSite `json:"branches,omitempty"`
	Rows     []Row        `json:"rows,omitempty"`
}

// Isolation is the isolation sandbox's report for the unit a target
// belongs to (the IMethods, IMembers and times of "Automated Isolation for
// White-box Test Generation").
type Isolation struct {
	Unit      string `json:"unit"`      // the unit's package
	Externals int    `json:"externals"` // functions and methods of other packages the unit calls
	Isolated  int    `json:"isolated"`  // those of them that are isolated
	Sites     int    `json:"sites"`     // isolated call sites, whose results are inputs of the target
	Members   int    `json:"members"`   // reads of other packages' package-level variables (real)
	// Calls lists the isolated externals with the environment API each
	// may reach: "bankdb.RunQuery (os.Getenv)".
	Calls []string `json:"calls,omitempty"`
	// Rows counts the target's rows in the isolated file (they made
	// isolated calls: dowse test runs them).
	Rows int `json:"rows"`
	// AnalysisSeconds is the effect analysis and plan of the run's
	// packages (loading the dependencies' syntax included), BuildSeconds
	// the rewrite and compilation of the package's worker binary; the
	// generation is the target's ElapsedSeconds.
	AnalysisSeconds float64 `json:"analysis_seconds"`
	BuildSeconds    float64 `json:"build_seconds"`
}

// Failure is one run that did not pass.
type Failure struct {
	Message       string `json:"message"`
	Status        string `json:"status"` // fail, panic, exit or timeout
	Input         string `json:"input"`
	PanicAt       string `json:"panic_at,omitempty"`
	PathCondition string `json:"path_condition,omitempty"`
	Test          string `json:"test,omitempty"`   // the generated test that reproduces it
	Output        string `json:"output,omitempty"` // the worker's output, for a run that ended it
	// Similar counts, on the first failure of a finding, the other
	// failing paths of that finding that are not listed.
	Similar int `json:"similar,omitempty"`
	// Finding is the ID of the finding (Target.Findings) the failure
	// belongs to; 0 if not known.
	Finding int `json:"finding,omitempty"`
	// NilInput marks a nil pointer dereference on a nil parameter or
	// receiver (automatic targets): listed apart, not counted as a finding.
	NilInput bool `json:"nil_input,omitempty"`
	// Documented marks a panic of an automatic target whose doc comment
	// (or Must name) says it panics, or whose value the code passed to
	// panic itself (a checked precondition, not a runtime error): listed
	// apart, not counted as a finding.
	Documented bool `json:"documented,omitempty"`
	// EarlierState marks a failure that did not happen again when its
	// input ran alone in a fresh worker: it depends on state earlier runs
	// left in the worker process. Listed apart, not counted as a finding.
	EarlierState bool `json:"earlier_state,omitempty"`
	// Precondition marks a failed type assertion of an automatic target
	// on one of its parameters among its first statements, before
	// anything with an effect (a comparator's a.(int8) given an int):
	// the function states the dynamic type it takes; or an index out of
	// range where the Less or Swap method of a sort.Interface indexes
	// with its parameters, which the interface's contract bounds by
	// Len(). Listed apart, not counted as a finding.
	Precondition bool `json:"precondition,omitempty"`
	// InvalidReceiver marks a nil dereference of an automatic target on
	// an input built from the zero value of a type whose package never
	// makes one, nor calls it ready to use, nor guards its nil fields:
	// not a value the package's code is given. Listed apart, not
	// counted as a finding.
	InvalidReceiver bool `json:"invalid_receiver,omitempty"`
	// Apart says why the failure is listed apart from the findings (one
	// of the Apart... constants), empty for a finding.
	Apart string `json:"apart,omitempty"`
}

// Finding is one cause of failures: how the runs ended and where.
type Finding struct {
	ID      int    `json:"id"`
	Status  string `json:"status"`
	PanicAt string `json:"panic_at,omitempty"`
	Message string `json:"message"`
	Input   string `json:"input"`  // the smallest failing input
	Inputs  int    `json:"inputs"` // failing inputs (paths) that reach it, listed or not
	Apart   string `json:"apart,omitempty"`
}

// findingsOf groups failures by their Finding IDs, in order; a failure
// without an ID is a finding of its own.
func findingsOf(failures []Failure) []Finding {
	var out []Finding
	at := map[int]int{}
	for i := range failures {
		f := &failures[i]
		if j, ok := at[f.Finding]; ok && f.Finding != 0 {
			out[j].Inputs += 1 + f.Similar
			continue
		}
		id := f.Finding
		if id == 0 {
			id = len(out) + 1
		}
		at[f.Finding] = len(out)
		out = append(out, Finding{ID: id, Status: f.Status, PanicAt: f.PanicAt, Message: f.Message, Input: f.Input, Inputs: 1 + f.Similar, Apart: f.Apart})
	}
	return out
}

// Why failures are listed apart from the findings (Failure.Apart).
const (
	ApartEarlierState = "earlier state"    // did not fail alone in a fresh worker
	ApartNilInput     = "nil input"        // a nil dereference on a nil parameter or receiver
	ApartDeliberate   = "deliberate"       // a documented panic, or one the code raised itself
	ApartPrecondition = "precondition"     // a failed type assertion the function begins with, a sort.Interface index out of range
	ApartInvalid      = "invalid receiver" // a nil dereference on a zero value the package never makes
)

// IsFinding reports whether f counts as a finding: a failure not listed
// apart.
func (f *Failure) IsFinding() bool { return f.Apart == "" }

// apart is why f is listed apart from the findings, "" if it is not.
func apart(f *Failure) string {
	switch {
	case f.EarlierState:
		return ApartEarlierState
	case f.NilInput:
		return ApartNilInput
	case f.InvalidReceiver:
		return ApartInvalid
	case f.Documented:
		return ApartDeliberate
	case f.Precondition:
		return ApartPrecondition
	}
	return ""
}

// BoundLimited is a branch outcome infeasible within -max-len and
// feasible with longer inputs.
type BoundLimited struct {
	Site    string   `json:"site"` // position of the branch
	Taken   bool     `json:"taken"`
	Lengths []string `json:"lengths"` // lengths of one solution beyond the bound, e.g. "len(b)=12"
}

// Unsolved is a branch outcome the solver could not decide.
type Unsolved struct {
	Site          string `json:"site"` // position of the branch
	Taken         bool   `json:"taken"`
	Reason        string `json:"reason"`
	PathCondition string `json:"path_condition"`
}

// Coverage counts branch outcomes: each branch site has two.
type Coverage struct {
	Sites    int `json:"sites"`    // branch sites in the instrumented code (0 if unknown)
	Outcomes int `json:"outcomes"` // their outcomes: twice Sites
	Covered  int `json:"covered"`  // outcomes (site, taken) seen, at most Outcomes
}

// Bounds says which input-size bound applied to the target's inputs.
type Bounds struct {
	MaxLen *int `json:"max_len,omitempty"` // set if the target has string or slice inputs
	// RaisedFrom is the bound the search started from (-max-len) when it
	// raised the bound to MaxLen because longer inputs mattered.
	RaisedFrom *int `json:"raised_from,omitempty"`
	// MaxAlloc is set if some input asked the code to make a slice longer
	// than this: those inputs are outside the explored domain.
	MaxAlloc *int `json:"max_alloc,omitempty"`
	// MockValues is set if the node bound restricted a choice of
	// dynamic type: each parameter holds at most this many generated
	// mock values (the length bound), those returned by mocks' methods
	// included.
	MockValues *int `json:"max_mock_values,omitempty"`
}

// Recursion is input-driven recursion that the branch bound stopped: the
// function (package path and name) and the deepest it was on the stack.
type Recursion struct {
	Func  string `json:"func"`
	Depth int    `json:"depth"`
}

// Options for NewTarget.
type Options struct {
	MaxLen int
	// Dir makes positions relative to it when they are beneath it.
	Dir string
	// Sites are the branch sites of the binary, sorted by ID.
	Sites []build.Site
	// Files are the generated files; Changed the subset of them that this
	// run created or rewrote (the others already had that content).
	Files   []string
	Changed []string
	// Tests is the number of rows emitted.
	Tests int
	// FailureTest names the generated test that reproduces failures.
	FailureTest string
	// Mocks are the generated mock types the rows use, by name.
	Mocks []string
	// Isolation is the report of the target's unit (nil: none).
	Isolation *Isolation
	// RowInputs are the rows' inputs as the generated test writes them,
	// aligned with the report's rows ("" where not known).
	RowInputs []string
	// KeptFailures, DroppedFailures and BehaviourChanged: as in Target.
	KeptFailures, DroppedFailures []string
	BehaviourChanged              []BehaviourChange
	// Share and Passes: the whole-run budget's first share of the
	// target's time and the searches it got (0: no budget).
	Share  time.Duration
	Passes int
}

// Budget is what the whole-run budget gave a target.
type Budget struct {
	ShareSeconds float64 `json:"share_seconds"` // its first share of the time
	// Passes counts its searches: more than one when targets that ended
	// early left time to explore it further, from where it stopped.
	Passes int `json:"passes"`
}

// Resumed is the earlier work a search continued.
type Resumed struct {
	Runs   int `json:"runs"`   // runs of the earlier searches
	Paths  int `json:"paths"`  // paths they found
	Inputs int `json:"inputs"` // inputs they left to start from (rows, failures)
}

// BehaviourChange is a row whose expectations changed: old → new.
type BehaviourChange struct {
	Case string `json:"case"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// MockType is a generated type a target's rows use.
type MockType struct {
	Name       string   `json:"name"`
	Implements []string `json:"implements,omitempty"` // the interfaces it was made for (for an annotated type, its field's type)
	Form       string   `json:"form"`                 // "pointer", "value", "empty struct", "not a struct", "annotated"
	Tag        string   `json:"tag,omitempty"`
}

// TypeConstraint is one constraint on the dynamic type of an interface
// input: "implements Queue", "tag role:\"A\"", "form value", ...
type TypeConstraint struct {
	Constraint string `json:"constraint"`
	Met        bool   `json:"met"` // some row's dynamic type meets it
}

// mockSummary describes the mock types of t that the rows use, and the
// constraints the offered ones stand for.
func mockSummary(t *load.Target, used []string) ([]MockType, []TypeConstraint) {
	if len(t.Mocks) == 0 {
		return nil, nil
	}
	props := func(m *mock.Type) (form string, cs []string) {
		switch {
		case m.Form == mock.Annotated:
			form = "annotated"
		case m.Form == mock.Empty:
			form = "empty struct"
		case m.Form == mock.NonStruct:
			form = "not a struct"
		case m.Ptr:
			form = "pointer"
		default:
			form = "value"
		}
		for _, i := range m.Implements {
			if m.Form == mock.Annotated {
				cs = append(cs, "has a field of type "+i)
			} else {
				cs = append(cs, "implements "+i)
			}
		}
		if m.Tag != "" {
			cs = append(cs, "tag "+m.Tag)
		}
		return form, append(cs, "form "+form)
	}
	isUsed := map[string]bool{}
	for _, n := range used {
		isUsed[n] = true
	}
	var types []MockType
	met := map[string]bool{}
	var order []string
	for _, m := range t.Mocks {
		form, cs := props(m)
		for _, c := range cs {
			if _, seen := met[c]; !seen {
				order = append(order, c)
				met[c] = false
			}
			met[c] = met[c] || isUsed[m.Name]
		}
		if isUsed[m.Name] {
			types = append(types, MockType{Name: m.Name, Implements: m.Implements, Form: form, Tag: m.Tag})
		}
	}
	var cons []TypeConstraint
	for _, c := range order {
		cons = append(cons, TypeConstraint{c, met[c]})
	}
	return types, cons
}

// NewTarget summarizes the exploration rep of target t of package pkg.
func NewTarget(pkg string, t *load.Target, rep *explore.Report, opts Options) *Target {
	out := &Target{
		Package:  pkg,
		Target:   t.Name,
		Kind:     t.Kind.String(),
		Position: Rel(opts.Dir, fmt.Sprintf("%s:%d", t.Pos.Filename, t.Pos.Line)),
		Failures: []Failure{},
		Files:    []string{},
	}
	out.KeptFailures, out.DroppedFailures = opts.KeptFailures, opts.DroppedFailures
	out.BehaviourChanged = opts.BehaviourChanged
	if len(out.KeptFailures)+len(out.DroppedFailures) > 0 {
		out.FailureTest = opts.FailureTest
	}
	changed := map[string]bool{}
	for _, f := range opts.Changed {
		changed[f] = true
	}
	for _, f := range opts.Files {
		out.Files = append(out.Files, Rel(opts.Dir, f))
		if !changed[f] {
			out.Unchanged = append(out.Unchanged, Rel(opts.Dir, f))
		}
	}
	if rep == nil {
		return out
	}
	out.Isolation = opts.Isolation
	site := func(id uint32) string {
		// Sites are sorted by ID; IDs are unique in a run, not dense in
		// one binary.
		i := sort.Search(len(opts.Sites), func(i int) bool { return opts.Sites[i].ID >= id })
		if i < len(opts.Sites) && opts.Sites[i].ID == id {
			p := opts.Sites[i].Pos
			return Rel(opts.Dir, fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column))
		}
		return fmt.Sprintf("site %d", id)
	}
	out.Runs = rep.Runs
	out.Paths = rep.Paths
	out.Tests = opts.Tests
	out.MockTypes, out.TypeConstraints = mockSummary(t, opts.Mocks)
	for _, f := range rep.Failures {
		out.Failures = append(out.Failures, Failure{
			Message:       strings.Join(f.Messages, "\n"),
			Status:        f.Status.String(),
			Input:         f.Input,
			PanicAt:       Rel(opts.Dir, f.PanicAt),
			PathCondition: f.PathCondition,
			Test:          opts.FailureTest,
			Output:        f.Output,
			Similar:       f.Similar,
			NilInput:      f.NilInput,
			Documented:    (t.PanicsDocumented || f.Deliberate) && f.Status == rt.StatusPanic && !f.NilInput,
		})
		last := &out.Failures[len(out.Failures)-1]
		last.Finding = f.Finding
		last.EarlierState = f.EarlierState
		last.InvalidReceiver = f.InvalidReceiver && !f.NilInput
		last.Precondition = f.Status == rt.StatusPanic && (strings.HasPrefix(last.Message, "interface conversion:") && slices.Contains(t.AssertSites, f.PanicAt) ||
			strings.HasPrefix(last.Message, "runtime error: index out of range") && slices.Contains(t.IndexSites, f.PanicAt))
		last.Apart = apart(last)
	}
	out.Findings = findingsOf(out.Failures)
	for _, l := range rep.BoundLimited {
		out.BoundLimited = append(out.BoundLimited, BoundLimited{Site: site(l.Site), Taken: l.Taken, Lengths: l.Lengths})
	}
	for _, u := range rep.Unsolved {
		out.Unsolved = append(out.Unsolved, Unsolved{Site: site(u.Site), Taken: u.Taken, Reason: u.Why, PathCondition: u.PathCondition})
	}
	out.Coverage = CoverageOf(rep, opts.Sites)
	out.Branches, out.Rows = reportData(t, rep, opts)
	if len(rep.Statuses) > 0 {
		out.Statuses = map[string]int{}
		for s, n := range rep.Statuses {
			out.Statuses[s.String()] = n
		}
	}
	out.StopReason = rep.StopReason
	out.Exhaustive = rep.Exhaustive
	if opts.Passes > 0 {
		out.Budget = &Budget{ShareSeconds: seconds(opts.Share), Passes: opts.Passes}
	}
	if r := explore.EarlierRun(rep); r != nil {
		out.Resumed = &Resumed{Runs: r.Runs, Paths: r.Paths, Inputs: len(r.Inputs)}
	}
	out.Incomplete = rep.Incomplete
	if rep.Recursion != "" {
		out.Recursion = &Recursion{Func: rep.Recursion, Depth: rep.RecursionDepth}
	}
	for _, l := range rep.Leaves {
		if l.IsLen || l.K == rt.KString {
			m := opts.MaxLen
			if rep.MaxLen > 0 {
				m = rep.MaxLen
			}
			out.Bounds.MaxLen = &m
			if rep.RaisedFrom > 0 {
				from := rep.RaisedFrom
				out.Bounds.RaisedFrom = &from
			}
			break
		}
	}
	if rep.AllocBounded {
		m := rt.MaxAlloc
		out.Bounds.MaxAlloc = &m
	}
	if rep.NodeBounded {
		m := max(1, opts.MaxLen)
		if rep.MaxLen > 0 {
			m = rep.MaxLen
		}
		out.Bounds.MockValues = &m
	}
	out.ElapsedSeconds = seconds(rep.Elapsed)
	out.SolverSeconds = seconds(rep.SolverTime)
	out.TargetSeconds = seconds(rep.TargetTime)
	out.SolverQueries = rep.Queries
	out.CacheHits = rep.CacheHits
	out.Divergences = rep.Divergences
	out.MutationRuns, out.MutationPaths = rep.MutantRuns, rep.MutantPaths
	out.LengthFreeRuns, out.LengthFreePaths = rep.LengthFreeRuns, rep.LengthFreePaths
	if f := rep.Fuzzer; f != nil {
		out.GoFuzz = &GoFuzz{Seconds: f.Time.Seconds(), Seeds: f.Seeds, Inputs: f.Inputs, Paths: f.Paths, Error: f.Err}
	}
	out.BuildCrashes = rep.BuildCrashes
	out.ResourceBounded = rep.ResourceBounded
	out.FailuresOmitted = rep.OmittedFailures
	out.UnstableRows = rep.Unstable
	for _, s := range rep.DivergenceSites {
		out.DivergenceSites = append(out.DivergenceSites, site(s))
	}
	out.Concretizations = rep.Concretizations
	for _, c := range rep.ConcretizedAt {
		if c.Site == 0 {
			// Recorded by a model of a library call, not at a site of
			// the code.
			out.ConcretizedAt = append(out.ConcretizedAt, c.Why)
			continue
		}
		out.ConcretizedAt = append(out.ConcretizedAt, site(c.Site)+": "+c.Why)
	}
	out.Errors = rep.Errors
	return out
}

// CoverageOf counts the branch outcomes rep covered among the branch
// sites of the binary (all the outcomes seen if sites is empty); the
// choices of input construction (rt.InputSite) are not code.
func CoverageOf(rep *explore.Report, sites []build.Site) Coverage {
	branch := map[uint32]bool{}
	for _, s := range sites {
		if s.Branch() {
			branch[s.ID] = true
		}
	}
	covered := 0
	for _, b := range rep.Covered {
		if b.Site != rt.InputSite && (len(branch) == 0 || branch[b.Site]) {
			covered++
		}
	}
	return Coverage{Sites: len(branch), Outcomes: 2 * len(branch), Covered: covered}
}

func seconds(d time.Duration) float64 {
	return float64(d.Milliseconds()) / 1000
}

// Rel returns the position or path p relative to dir if it lies beneath
// dir, else p.
func Rel(dir, p string) string {
	if dir == "" || p == "" || !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	return rel
}

// GoFuzz is what Go's fuzzer (go test -fuzz) did in the hybrid phase of a
// fuzz target: it ran for Seconds from Seeds passing inputs dowse had
// found, and found Inputs inputs (new coverage or failures), whose runs
// took Paths paths no earlier run had taken.
type GoFuzz struct {
	Seconds float64 `json:"seconds"`
	Seeds   int     `json:"seeds"`
	Inputs  int     `json:"inputs"`
	Paths   int     `json:"paths"`
	Error   string  `json:"error,omitempty"`
}
