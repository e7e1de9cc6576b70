// Package rt is the runtime linked into instrumented code. It depends only
// on the standard library.
//
// The instrumenter rewrites the code under test so that, next to every
// concrete value, a shadow (S) names the symbolic expression the value
// equals on the current run, and every branch reports its outcome and its
// symbolic condition here. The functions of this package always return the
// concrete values they are given: shadows can only ever cost precision,
// never change what the program does.
//
// # Model
//
// Shadows live in five places:
//
//   - locals and parameters of tracked types (integers, bools, strings and
//     slices, whose shadow is the shadow of their length) have companion
//     shadow variables declared by the instrumenter;
//   - memory (struct fields, array and slice elements, pointees) has shadow
//     cells keyed by address, each holding the shadow and a fingerprint of
//     the value it describes; a load whose concrete value no longer matches
//     the fingerprint (the cell was overwritten by uninstrumented code, or
//     the memory was reused) yields no shadow;
//   - maps with symbolic keys or values have a shadow table each (maps.go),
//     keyed by the map's runtime pointer: its entries in the order the run
//     stored them, with the shadows of keys and values; every access
//     records which entry its key reaches as branches;
//   - input channels (chans.go) keep the shadows of their elements in
//     order, handed over by the receives the instrumenter reports;
//   - calls pass shadows through two registers: the caller announces the
//     argument shadows of the next call (Call) and the callee's prologue
//     takes them (Enter, In); the callee leaves its result shadows before
//     returning (Ret) and the caller picks them up right after the call
//     (Res). Both carry fingerprints too, so a register that describes some
//     other call is never believed.
//
// Symbolic tracking follows one goroutine: when instrumented code starts a
// goroutine, tracking stops for the rest of the run and the run says so.
//
// # Worker
//
// Serve and Fuzz turn an instrumented test binary into a worker that runs
// targets on inputs chosen by the dowse coordinator (see proto.go).
package rt
