package rt

import (
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"
)

// busy guards the run's state against concurrent use: tracking follows one
// goroutine, but code under test may run instrumented callbacks on
// goroutines started by uninstrumented code. A goroutine that finds the
// state busy stops tracking for the rest of the run instead of corrupting
// it (see lock).
var busy atomic.Bool

// lock takes the run's state; when another goroutine holds it, tracking
// stops for the rest of the run and lock reports false.
func lock() bool {
	if busy.CompareAndSwap(false, true) {
		return true
	}
	on.Store(false)
	concurrent.Store(true)
	return false
}

func unlock() { busy.Store(false) }

// concurrent records that two goroutines used the runtime at once.
var concurrent atomic.Bool

// on is true while a run is being traced. Everything in this package is a
// cheap no-op when it is false (plain runs of instrumented code).
var on atomic.Bool

// cell is the shadow of a value in memory.
type cell struct {
	s  S
	fp uint64
}

// Arg is the shadow of one argument or result passed through a register,
// with the fingerprint of the concrete value it describes. An aggregate
// (array or struct) is passed by address: S is Agg and F the address.
type Arg struct {
	S S
	F uint64
	N uintptr // the size of an aggregate passed by address
}

// Agg marks an Arg that carries the address of an aggregate value.
const Agg S = ^S(0)

const maxArgs = 16

// frame is a register of argument or result shadows.
type frame struct {
	fn    uint32 // function id; 0 for a call whose callee is not known statically
	n     int
	valid bool
	args  [maxArgs]Arg
}

// run is the state of the traced run.
type run struct {
	nodes  []Node
	consts map[constKey]S
	events []Event
	// deferred are the choices made building the elements of mock
	// scripts, by the element's address: recorded when a call returns
	// the element (MockResult), not when it is built, so that the
	// choices of results no call returns are not branches of the run.
	deferred map[uintptr]deferredElem
	// mocks counts, per parameter, the generated mock values the run
	// has built or been returned (the node bound, see mockBound), and
	// mockBound is that bound: Layout.MaxLen, at least 1.
	mocks     map[int]int
	mockBound int
	// nilled are the choice leaves of the mock values the node bound
	// made nil (Result.Nilled).
	nilled      []int
	nodeBounded bool
	conc        []Concretization
	mem         map[uintptr]cell
	pending     frame
	entered     frame // the frame taken by the last Enter, read by In
	ret         frame
	maxEvents   int
	truncated   bool
	// recursion and recursionDepth name the function repeating on the
	// call stack when the branch bound stopped the run (recursion.go).
	recursion      string
	recursionDepth int
	allocBound     bool // the run stopped before a make beyond MaxAlloc
	unmade         bool // an input was built from a zero value the package never makes (Build.Unmade)
	goroutine      bool
	messages       []string
	inputs         []S
	// slices are the input slices of integer elements, by the address of
	// their first element: the leaves of all their possible elements
	// (see LdSym).
	slices map[uintptr]inputSlice
	// emptySlices are the input slices of integer elements that are
	// empty (nil) in this run, by the shadow of their length.
	emptySlices map[S]inputSlice
	// maps are the shadow tables of the maps the run stored symbolic keys
	// or values in, by the maps' runtime pointers (see maps.go).
	maps map[unsafe.Pointer]*mapState
	// chans are the input channels the target can receive from, by their
	// runtime pointers, and recvd is the shadow of the element the last
	// followed receive got (see chans.go).
	chans    map[unsafe.Pointer]*chanState
	chanList []*chanState // the same, in the order they were built
	// outChans are the send-only input channels: what the target sends
	// on them only the test sees (see Sent).
	outChans map[unsafe.Pointer]bool
	recvd    Arg
	// picked holds the symbolic indexes whose value the run has already
	// chosen (see Pick), with that value.
	picked map[S]uint64
	// depths memoizes selectDepth: the nesting of selections (LdSym's
	// if-then-else over the elements a symbolic index may reach) in the
	// expressions walked, by node.
	depths map[S]uint8
	// windows holds the index expressions a selection among more than
	// maxIteElems elements chose a window for, with the window's start
	// (see window).
	windows map[S]uint64
	// builders are the shadows of the contents of the strings.Builders
	// the run wrote symbolic values to (see stringsbuilder.go).
	builders map[*strings.Builder]builderEntry
	// boxes are the interface values whose copies were given cells
	// (see Box), kept alive for the run.
	boxes []any
	// shared are the copies in the runtime's table of small values that
	// a value was boxed to in the run (see Box).
	shared      map[uintptr]bool
	recoveredAt string
	t           *testing.T // the run's subtest, stopped by the branch bound
}

// inputSlice is an input slice of integer elements: it has n elements in
// this run, and elems holds the shadows of the leaves of all the elements
// a longer input would have (up to the length bound).
type inputSlice struct {
	n     int
	elems []S
}

type constKey struct {
	k    Kind
	bits uint64
}

var cur run

func resetRun(maxEvents int) {
	cur.nodes = append(cur.nodes[:0], Node{})
	if cur.consts == nil {
		cur.consts = make(map[constKey]S)
	} else {
		clear(cur.consts)
	}
	cur.events = cur.events[:0]
	cur.recursion, cur.recursionDepth = "", 0
	clear(cur.deferred)
	clear(cur.mocks)
	cur.mockBound = 1
	cur.nilled = cur.nilled[:0]
	cur.nodeBounded = false
	cur.conc = cur.conc[:0]
	if cur.mem == nil {
		cur.mem = make(map[uintptr]cell)
	} else {
		clear(cur.mem)
	}
	cur.pending = frame{}
	cur.entered = frame{}
	cur.ret = frame{}
	cur.maxEvents = maxEvents
	cur.truncated = false
	cur.allocBound = false
	cur.unmade = false
	clear(cur.slices)
	clear(cur.emptySlices)
	clear(cur.maps)
	clear(cur.chans)
	cur.chanList = cur.chanList[:0]
	clear(cur.outChans)
	cur.recvd = Arg{}
	clear(cur.picked)
	clear(cur.depths)
	clear(cur.windows)
	clear(cur.builders)
	clear(cur.boxes)
	cur.boxes = cur.boxes[:0]
	if cur.shared == nil {
		cur.shared = make(map[uintptr]bool)
	} else {
		clear(cur.shared)
	}
	cur.goroutine = false
	concurrent.Store(false)
	cur.messages = cur.messages[:0]
	cur.inputs = cur.inputs[:0]
	cur.recoveredAt = ""
}

func mk(n Node) S {
	if !lock() {
		return 0
	}
	cur.nodes = append(cur.nodes, n)
	s := S(len(cur.nodes) - 1)
	unlock()
	return s
}

// mask returns the bits of v that a value of kind k keeps.
func mask(k Kind, v uint64) uint64 {
	switch max(k.Bits(), k.FloatBits()) {
	case 1:
		if v != 0 {
			return 1
		}
		return 0
	case 8:
		return v & 0xff
	case 16:
		return v & 0xffff
	case 32:
		return v & 0xffffffff
	}
	return v
}

func constant(k Kind, bits uint64) S {
	bits = mask(k, bits)
	key := constKey{k, bits}
	if !lock() {
		return 0
	}
	s, ok := cur.consts[key]
	if !ok {
		cur.nodes = append(cur.nodes, Node{Op: OpConst, K: k, Val: bits})
		s = S(len(cur.nodes) - 1)
		cur.consts[key] = s
	}
	unlock()
	return s
}

func strConst(v string) S { return mk(Node{Op: OpStr, K: KString, Str: v}) }

// B is the fingerprint of a bool.
func B(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// FS is the fingerprint of a string: its data pointer and length, mixed
// with strTag so that no string's fingerprint is a small number. Memory
// cells are checked by fingerprint only: code that reads a string's
// memory as another type (unsafe.Pointer from a string header to a slice
// header, as xxhash's WriteString does) must not find the string's
// shadow, and without the tag the empty string, whose data pointer is
// nil, had fingerprint 0, an empty slice's (its length).
func FS(s string) uint64 {
	return (uint64(uintptr(unsafe.Pointer(unsafe.StringData(s))))*31 + uint64(len(s))) ^ strTag
}

// strTag is mixed into string fingerprints (FS).
const strTag = 0x9e3779b97f4a7c15

// Conc records that a symbolic value was replaced by its concrete value.
func Conc(site uint32, why string) {
	if on.Load() && lock() {
		cur.conc = append(cur.conc, Concretization{Site: site, Why: why})
		unlock()
	}
}

// Go is called right before instrumented code starts a goroutine: symbolic
// tracking follows one goroutine only, so it stops here for the rest of
// the run.
func Go() {
	if on.Load() {
		cur.goroutine = true
		on.Store(false)
	}
}
