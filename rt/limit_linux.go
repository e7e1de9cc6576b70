package rt

import "syscall"

// limitMemory bounds the worker's data segment (which, on Linux, covers the
// Go heap's anonymous mappings): a run that allocates beyond it makes the
// runtime fail with "out of memory", which ends the worker, and the
// coordinator records the run and starts a new worker.
func limitMemory(bytes uint64) {
	lim := syscall.Rlimit{Cur: bytes, Max: bytes}
	_ = syscall.Setrlimit(syscall.RLIMIT_DATA, &lim)
}
