//go:build !linux

package rt

// limitMemory is a no-op where RLIMIT_DATA does not bound the heap.
func limitMemory(bytes uint64) {}
