package rt

import "os"

// EnvTraceAll, set to "1", makes instrumented code trace from program start
// on, outside any worker: the differential tests use it to check that
// tracing never changes what the program does. The trace is discarded
// whenever it grows large.
const EnvTraceAll = "DOWSE_TRACE_ALL"

var traceAll = os.Getenv(EnvTraceAll) == "1"

func init() {
	if traceAll {
		resetRun(0)
		on.Store(true)
	}
}

// trimTrace drops a trace-all run's state when it has grown large. Called
// with the state locked.
func trimTrace() {
	if len(cur.events) > 1<<18 || len(cur.nodes) > 1<<18 || len(cur.mem) > 1<<18 {
		cur.nodes = append(cur.nodes[:0], Node{})
		clear(cur.consts)
		cur.events = cur.events[:0]
		cur.conc = cur.conc[:0]
		clear(cur.mem)
		// The memos keyed by node are stale with the nodes gone.
		clear(cur.picked)
		clear(cur.depths)
		clear(cur.windows)
	}
}
