// Package instrument rewrites the Go source of packages under test so that
// their execution reports symbolic shadows and branch outcomes to the
// runtime package rt, without changing what the code does.
//
// # Model
//
// The rewrite works statement by statement on the type-checked AST:
//
//   - Calls (and receives, composite literals, append) nested in an
//     expression are hoisted into temporaries declared right before the
//     statement, left to right, so that every remaining expression is free
//     of side effects and can be evaluated again to compute its shadow.
//     This is the order the gc compiler uses too. Calls that cannot be
//     hoisted (in a loop condition, a case expression, the right operand of
//     && or ||) stay in place and their results are concrete.
//   - Every local variable of a tracked type (integers, bools, strings,
//     slices) gets a companion of type rt.Sh declared next to it. Before an
//     assignment, the shadows of the right-hand sides are computed into
//     temporaries; after it, companions and memory cells are set.
//   - Memory (fields, elements, pointees) is shadowed by address through
//     rt.St / rt.Ld; aggregate copies move shadows with rt.Copy.
//   - Calls to functions of instrumented packages announce their argument
//     shadows (rt.Call) and pick up result shadows (rt.Res); function
//     prologues take them (rt.Enter, rt.In) and returns leave them (rt.Ret).
//   - Receives (in expressions, statements, v, ok := <-c and range
//     loops over channels, which become loops of receives) report
//     themselves (rt.Recv, rt.RecvOk), so that a channel input hands over
//     its elements' shadows.
//   - Every if and for condition, every operand of && and ||, every case
//     comparison, the continuation check of range loops and the clause of
//     a type switch is a branch (rt.Br); bounds checks, divisions and shifts
//     are implicit branches (rt.Imp, rt.Bounds, rt.Quo, rt.Shift).
//
// Whatever the rewrite does not model stays as it was: its values are
// concrete. Output is printed with //line directives so positions (panics,
// t.Error lines, coverage) refer to the original source.
package instrument
