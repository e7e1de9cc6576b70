package rt

import "embed"

// Source holds the runtime's own Go files, so that the dowse command can
// write the runtime into a work directory as a module of its own and build
// instrumented code against it without touching the user's go.mod.
//
//go:embed *.go
var Source embed.FS
