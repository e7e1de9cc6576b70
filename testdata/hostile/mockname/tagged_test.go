//go:build extra

package mockname

// A name dowse would give a generated type, declared in a file only
// some builds compile.
type dowseSourceReaderRead struct{}
