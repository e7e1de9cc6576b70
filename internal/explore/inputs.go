package explore

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dowse-go/dowse/rt"
)

// constText renders the bits v of kind k as a Go constant.
func constText(k rt.Kind, v uint64) string {
	switch {
	case k == rt.KBool:
		return strconv.FormatBool(v != 0)
	case k.Signed():
		return strconv.FormatInt(signExtend(k, v), 10)
	}
	return strconv.FormatUint(v, 10)
}

// signExtend interprets the low bits of v as a signed integer of kind k.
func signExtend(k rt.Kind, v uint64) int64 {
	bits := uint(k.Bits())
	if bits == 0 || bits >= 64 {
		return int64(v)
	}
	shift := 64 - bits
	return int64(v<<shift) >> shift
}

// valueText renders one input value of leaf l.
func valueText(l rt.Leaf, v rt.Value) string {
	switch {
	case l.K == rt.KString:
		return strconv.Quote(v.Str)
	case l.Float && l.K == rt.KUint32:
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(v.Bits))), 'g', -1, 32)
	case l.Float:
		return strconv.FormatFloat(math.Float64frombits(v.Bits), 'g', -1, 64)
	}
	return constText(l.K, v.Bits)
}

// empty reports whether v is, for leaf l, the length of an output's
// collection that is empty but not nil (rt.EmptySlice).
func empty(l rt.Leaf, v rt.Value) bool {
	return l.IsLen && v.Bits == rt.EmptySlice && len(l.Steps) > 0 && l.Steps[len(l.Steps)-1].Kind == rt.StepLen
}

// emptyText writes the length leaf i (path: "len(xs)") of an empty
// collection that is not nil as an empty literal: "xs=[]{}", or
// "m=map{}" for a map (its entries' leaves follow it).
func emptyText(leaves []rt.Leaf, i int, path string) string {
	name := path
	if s, ok := strings.CutPrefix(path, "len("); ok {
		name = strings.TrimSuffix(s, ")")
	}
	lit := "[]{}"
	if l := leaves[i]; i+1 < len(leaves) {
		base := l.Steps[:len(l.Steps)-1]
		if n := leaves[i+1]; n.Param == l.Param && len(n.Steps) > len(base) && stepsPrefix(base, n.Steps) && n.Steps[len(base)].Kind == rt.StepMapKey {
			lit = "map{}"
		}
	}
	return name + "=" + lit
}

// InputText renders an input vector leaf by leaf, leaving out the
// leaves of slice elements beyond their length and of nil pointers:
// "len(xs)=1, xs[0]=3, x=0, p != nil=false".
func InputText(leaves []rt.Leaf, in []rt.Value) string {
	return LabeledInputText(leaves, in, nil)
}

// LabeledInputText is InputText with the leaves of the calls of the
// parameters labels names (by layout name: an isolated call site's
// "iso:Load.ReadFile.1") written by that name and the call's number,
// counted from 1: "os.ReadFile#1 returned len(r0)=1, r0[0]=120",
// instead of "len(iso:Load.ReadFile.1.call[0].r0)=1,
// iso:Load.ReadFile.1.call[0].r0[0]=120".
func LabeledInputText(leaves []rt.Leaf, in []rt.Value, labels map[string]string) string {
	if len(in) != len(leaves) {
		return fmt.Sprintf("<%d values for %d leaves>", len(in), len(leaves))
	}
	var parts []string
	lastCall := ""
	for i, l := range leaves {
		if hidden(leaves, in, i) {
			continue
		}
		path, call := labeled(l.Path, labels)
		part := path + "=" + valueText(l, in[i])
		if empty(l, in[i]) {
			part = emptyText(leaves, i, path)
		}
		if call != "" && call != lastCall {
			part = call + " returned " + part
		}
		lastCall = call
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// labeled rewrites a leaf path that goes through a call of a labelled
// parameter ("len(iso:K.call[0].r0)") into the path within the call
// ("len(r0)") and the call's name ("os.ReadFile#1"); other paths are
// returned as they are, with call "".
func labeled(path string, labels map[string]string) (string, string) {
	for name, label := range labels {
		i := strings.Index(path, name+".call[")
		if i < 0 {
			continue
		}
		rest := path[i+len(name)+len(".call["):]
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			continue
		}
		n, err := strconv.Atoi(rest[:j])
		if err != nil {
			continue
		}
		return path[:i] + strings.TrimPrefix(rest[j+1:], "."), fmt.Sprintf("%s#%d", label, n+1)
	}
	return path, ""
}

// hidden reports whether leaf i of the input vector in takes no part in
// the value: it belongs to a slice element beyond the slice's length, to
// the pointee of a nil pointer or the message of a nil error, to a
// dynamic type of an interface other than the chosen one, or to a call of
// a built value that is not made or a method that call did not choose. A
// leaf is only hidden by the leaves before it.
func hidden(leaves []rt.Leaf, in []rt.Value, i int) bool {
	l := leaves[i]
	for j := i - 1; j >= 0; j-- {
		o := leaves[j]
		if o.Param != l.Param {
			break
		}
		if len(o.Steps) == 0 || len(o.Steps) > len(l.Steps) {
			continue
		}
		base := o.Steps[:len(o.Steps)-1]
		if !stepsPrefix(base, l.Steps) {
			continue
		}
		next := l.Steps[len(base)]
		switch last := o.Steps[len(o.Steps)-1]; {
		case last.Kind == rt.StepLen && o.IsLen:
			n := int(in[j].Bits)
			if in[j].Bits == rt.EmptySlice {
				n = 0
			}
			if (next.Kind == rt.StepIndex || next.Kind == rt.StepMapKey || next.Kind == rt.StepMapValue) && next.N >= n {
				return true
			}
		case last.Kind == rt.StepChoice && o.Choice:
			if in[j].Bits&1 == 0 && (next.Kind == rt.StepDeref || next.Kind == rt.StepMessage) {
				return true
			}
		case last.Kind == rt.StepType && o.IsLen:
			// An interface's dynamic type: the other types' leaves.
			if next.Kind == rt.StepArg && next.Alt != 0 && next.Alt != int(in[j].Bits) {
				return true
			}
			// A pooled interface's pool, when the value is nil.
			if next.Kind == rt.StepPool && in[j].Bits == 0 {
				return true
			}
		case last.Kind == rt.StepCall && o.IsLen && next.Kind == rt.StepCall:
			// A built value's call: "no more calls" hides the later
			// calls, a method the other methods' arguments.
			switch {
			case next.N > last.N && in[j].Bits == 0:
				return true
			case next.N == last.N && len(l.Steps) > len(o.Steps):
				if arg := l.Steps[len(o.Steps)]; arg.Kind == rt.StepArg && arg.Alt != 0 && arg.Alt != int(in[j].Bits) {
					return true
				}
			}
		}
	}
	return false
}

func stepsPrefix(pre, steps []rt.Step) bool {
	if len(pre) >= len(steps) {
		return false
	}
	for i := range pre {
		if pre[i] != steps[i] {
			return false
		}
	}
	return true
}
