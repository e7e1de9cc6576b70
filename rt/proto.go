package rt

// The worker protocol. The coordinator starts the instrumented test binary
// with the environment variable DOWSE_WORKER set and two extra file
// descriptors: fd 3 carries requests from the coordinator, fd 4 carries
// replies to it. Both directions are gob streams. The first message on fd 4
// is a Hello, sent once the worker has read the Setup that is the first
// message on fd 3; then every Request is answered by exactly one Result, in
// order. The worker's stdout and stderr carry only what the program under
// test prints.

// Environment variables read by the worker.
const (
	EnvWorker    = "DOWSE_WORKER"     // "1" when the binary runs as a worker
	EnvFuzz      = "DOWSE_FUZZ"       // name of the fuzz target to serve, when serving one
	EnvTargets   = "DOWSE_TARGETS"    // comma-separated names of the PUTs to serve (all when empty)
	EnvMaxMemory = "DOWSE_MAX_MEMORY" // bound on the worker's data segment in bytes (RLIMIT_DATA)
)

// Setup is the first message of the coordinator: the layout of the inputs
// of each target it will ask for (see Layout). A target without a layout
// cannot be run.
type Setup struct {
	Layouts map[string]Layout
}

// Hello is the first message of a worker, the answer to Setup: the targets
// it can run, each with the leaves of its layout.
type Hello struct {
	Targets []TargetInfo
}

// TargetInfo describes one target a worker serves.
type TargetInfo struct {
	Name   string
	Leaves []Leaf // the input vector, see Layout.Leaves
	Err    string // why the target cannot be run (no layout, or one that does not fit its parameters); Leaves is empty then
	// Seeds are the inputs a fuzz target added with f.Add when it ran,
	// whatever computed them (a loop, a call), one SeedValue a parameter.
	Seeds [][]SeedValue
}

// SeedValue is one argument of an f.Add call: an integer (signed ones in
// Int, unsigned ones in Uint), a float, a bool, a string or a []byte.
// Unsupported marks a value of another type: the seed is of no use then.
type SeedValue struct {
	Kind        string // "int", "uint", "float", "bool", "string", "bytes"
	Int         int64
	Uint        uint64
	Float       float64
	Bool        bool
	Str         string
	Bytes       []byte
	Unsupported bool
}

// Value is the value of one leaf.
type Value struct {
	Bits uint64 // integers (two's complement, zero-extended from the kind's width) and bools (0, 1)
	Str  string // strings
}

// Request asks the worker to run one target on one input vector.
type Request struct {
	Seq         uint64
	Target      string
	Inputs      []Value // one per leaf of the target
	MaxBranches int     // stop recording after this many branch events (0: no limit)
}

// Status is how a run ended.
type Status uint8

const (
	StatusPass    Status = iota // returned normally, no failure
	StatusSkip                  // t.Skip / t.SkipNow: an assumption did not hold
	StatusFail                  // t.Error*, t.Fatal*, t.Fail*
	StatusPanic                 // a panic escaped the target
	StatusExit                  // os.Exit or the process died (set by the coordinator or by rt.Exit)
	StatusTimeout               // the run exceeded its time bound (set by the coordinator)
	StatusBound                 // the branch bound stopped the run
	// StatusBuilding and StatusBuilt are not how a run ends but progress
	// marks, sent for targets whose inputs are built by calling the
	// package's code: the worker is building the input of run Seq, or has
	// built it. The run's result follows. A worker that dies between the
	// two died building the input, which rejects the input.
	StatusBuilding
	StatusBuilt
)

func (s Status) String() string {
	switch s {
	case StatusPass:
		return "pass"
	case StatusSkip:
		return "skip"
	case StatusFail:
		return "fail"
	case StatusPanic:
		return "panic"
	case StatusExit:
		return "exit"
	case StatusTimeout:
		return "timeout"
	case StatusBound:
		return "bound"
	case StatusBuilding:
		return "building"
	case StatusBuilt:
		return "built"
	}
	return "unknown"
}

// Event is one branch outcome of a run.
type Event struct {
	Site     uint32 // branch site, as numbered by the instrumenter
	Taken    bool   // the outcome: the condition's value
	Implicit bool   // an implicit branch (bounds, division by zero, ...); not part of a path's identity
	Cond     S      // symbolic condition (whose value is Taken), 0 if concrete
}

// Concretization records that a symbolic value was replaced by its
// concrete value, which may hide paths.
type Concretization struct {
	Site uint32 // site of the operation, 0 if unknown
	Why  string
}

// Result reports one run.
type Result struct {
	Seq      uint64
	Status   Status
	Messages []string // failure and skip messages, the panic value
	PanicAt  string   // "file:line" of the innermost frame of instrumented code for a panic; also for recovered panics
	// RuntimeError is set when the panic value is a runtime.Error (a nil
	// dereference, an index out of range, a division by zero), as opposed
	// to a value the code passed to panic itself.
	RuntimeError bool
	Events       []Event
	Nodes        []Node // the run's expression arena; index 0 is unused
	Concretized  []Concretization
	Truncated    bool // the branch bound was hit, or the allocation bound (AllocBound)
	// Recursion is the function (package path and name) that appeared
	// at least RecursionFrames times on the call stack when the branch
	// bound stopped the run, RecursionDepth how many times: the bound
	// was hit by recursion, not by a loop. "" otherwise.
	Recursion      string
	RecursionDepth int
	AllocBound     bool // the run stopped before a make longer than MaxAlloc
	Goroutines     bool // the run started goroutines: symbolic tracking stopped there
	// Outputs are the results an automatic target returned, one value
	// per leaf of Layout.OutputLayout, when the run returned and every
	// result fit its layout (a recursive value deeper than the unfolding
	// bound does not); nil otherwise. If a parameter reported after the
	// call (Layout.After) does not fit its shape, Outputs holds the
	// results alone.
	Outputs []Value
	Nanos   int64 // time spent in the target itself (not in the worker's harness)
	// Isolated counts the isolated calls the run made (sandbox.go): a row
	// with any replays sandbox values, so it goes into the isolated file.
	Isolated int
	// Nilled are the choice leaves (indexes into the input vector) of
	// generated mock values that the node bound made nil in this run
	// (docs/mocks.md, "The node bound"): the run did not read those
	// leaves, and the input that reproduces it holds 0 (nil) there.
	Nilled []int
	// NodeBounded is set when the node bound restricted a choice of
	// dynamic type in this run: a mock value was made nil, or a choice
	// was recorded without its mock types (boundedChain).
	NodeBounded bool
	// MockCalls are, for an automatic target that returned, per
	// parameter, the calls its generated mock recorded (its field got:
	// "Method(arg, ...)", as the generated tests' mocks record them),
	// nil for a parameter that holds no such mock; nil if none does.
	MockCalls [][]string
	// Unmade is set when an input was built from the zero value of a
	// type whose package never makes one (Build.Unmade): a nil
	// dereference in such a run says the input was not a valid value.
	Unmade bool
}
