package explore

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dowse-go/dowse/rt"
)

// One bug is often reached by many failing paths: a slice bound off by
// one in a config parser fails on every path that reaches it, and
// listing each as a failure (64 of them, each with its input and path
// condition) hid that there was one. Failures are grouped by cause — how
// the run ended, where it panicked, and its message with the values in it
// masked — and each group is a finding, reported by its smallest input
// with a count of the others.

// MaxPerFinding is the number of failing inputs a finding of a PUT or
// fuzz target keeps (its rows in the failure table): its smallest, then
// the next ones found. A regression target keeps one.
const MaxPerFinding = 3

// causeKey identifies the cause of a failure.
type causeKey struct {
	status          rt.Status
	panicAt         string
	msg             string // causeMessage
	nilInput        bool
	invalidReceiver bool
}

// groupFailures groups the failures of rep by cause. Each group keeps its
// smallest input first (inputSize), then up to keep-1 others in the
// order found; the group's first failure counts the others
// (Failure.Similar), whose rows are dropped. Groups are numbered from 1
// in the order their first failure was found (Failure.Finding), and the
// failures of a group follow one another. Nil pointer dereferences on a
// nil parameter are marked first (Failure.NilInput), and are a cause of
// their own. At most limit failures are kept (0: no bound): the others
// of the groups first, from the last group, then whole groups, counted
// in Report.OmittedFailures.
func groupFailures(rep *Report, leaves []rt.Leaf, keep, limit int) {
	if len(rep.Failures) == 0 {
		return
	}
	type group struct {
		key causeKey
		all []Failure
	}
	var groups []*group
	index := map[causeKey]*group{}
	for _, f := range rep.Failures {
		msg := strings.Join(f.Messages, "\n")
		f.NilInput = f.Status == rt.StatusPanic && strings.Contains(msg, "nil pointer dereference") && nilParam(leaves, f.Inputs)
		k := causeKey{f.Status, f.PanicAt, causeMessage(msg), f.NilInput, f.InvalidReceiver}
		g := index[k]
		if g == nil {
			g = &group{key: k}
			index[k] = g
			groups = append(groups, g)
		}
		g.all = append(g.all, f)
	}
	drop := map[int]bool{} // rows
	kept := make([][]Failure, len(groups))
	for gi, g := range groups {
		small := 0
		for i, f := range g.all {
			if inputLess(leaves, f.Inputs, g.all[small].Inputs) {
				small = i
			}
		}
		order := append([]Failure{g.all[small]}, slices.Delete(slices.Clone(g.all), small, small+1)...)
		n := min(keep, len(order))
		for _, f := range order[n:] {
			if f.Row >= 0 {
				drop[f.Row] = true
			}
		}
		kept[gi] = order[:n]
		kept[gi][0].Similar = len(order) - n
		for i := range kept[gi] {
			kept[gi][i].Finding = gi + 1
		}
	}
	count := func() int {
		n := 0
		for _, k := range kept {
			n += len(k)
		}
		return n
	}
	for gi := len(kept) - 1; limit > 0 && gi >= 0 && count() > limit; gi-- {
		for len(kept[gi]) > 1 && count() > limit {
			f := kept[gi][len(kept[gi])-1]
			kept[gi] = kept[gi][:len(kept[gi])-1]
			kept[gi][0].Similar++
			if f.Row >= 0 {
				drop[f.Row] = true
			}
		}
	}
	for limit > 0 && count() > limit {
		last := kept[len(kept)-1]
		kept = kept[:len(kept)-1]
		rep.OmittedFailures += last[0].Similar + len(last)
		for _, f := range last {
			if f.Row >= 0 {
				drop[f.Row] = true
			}
		}
	}
	rep.Failures = slices.Concat(kept...)
	dropRows(rep, drop)
}

// causeMessage is the part of a failure message that names its cause:
// for a runtime error, its kind ("runtime error: index out of range",
// whatever the index: [-1] and [0] with length 0 are one misuse at one
// site), otherwise the message with its values masked (maskValues).
func causeMessage(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "runtime error: "); ok {
		if i := strings.IndexByte(rest, '['); i > 0 {
			rest = rest[:i]
		}
		return "runtime error: " + maskValues(strings.TrimSpace(rest))
	}
	return maskValues(msg)
}

// maskValues replaces the numbers and quoted strings of a failure
// message by placeholders, so that messages that differ only in the
// values they show ("index out of range [8] with length 8", a PUT's
// t.Errorf("Parse(%q) = %d", ...)) name the same cause.
func maskValues(msg string) string {
	var b strings.Builder
	for i := 0; i < len(msg); {
		c := msg[i]
		switch {
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(msg) && msg[i+1] >= '0' && msg[i+1] <= '9':
			i++
			for i < len(msg) && (msg[i] >= '0' && msg[i] <= '9' || msg[i] == '.' || msg[i] == 'x' || msg[i] >= 'a' && msg[i] <= 'f') {
				i++
			}
			b.WriteByte('#')
		case c == '"':
			j := i + 1
			for j < len(msg) && msg[j] != '"' && msg[j] != '\n' {
				if msg[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(msg) && msg[j] == '"' {
				b.WriteString(`"…"`)
				i = j + 1
			} else {
				b.WriteByte(c)
				i++
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// inputLess reports whether input a is smaller than b: shorter (the sum
// of its strings' and slices' lengths), then with fewer non-zero values,
// then with values of smaller magnitude. Leaves that take no part in the
// value (hidden) do not count.
func inputLess(leaves []rt.Leaf, a, b []rt.Value) bool {
	sa, sb := inputSize(leaves, a), inputSize(leaves, b)
	for i := range sa {
		if c := cmp.Compare(sa[i], sb[i]); c != 0 {
			return c < 0
		}
	}
	return false
}

// inputSize is the measure inputLess compares.
func inputSize(leaves []rt.Leaf, in []rt.Value) [3]uint64 {
	var s [3]uint64
	if len(in) != len(leaves) {
		return [3]uint64{^uint64(0), 0, 0}
	}
	for i, l := range leaves {
		if hidden(leaves, in, i) {
			continue
		}
		v := in[i]
		var mag uint64
		switch {
		case l.K == rt.KString:
			s[0] += uint64(len(v.Str))
			mag = uint64(len(v.Str))
		case l.IsLen:
			s[0] += v.Bits
			mag = v.Bits
		case l.Float:
			mag = v.Bits &^ (1 << 63) // the sign bit aside
			if l.K == rt.KUint32 {
				mag = v.Bits &^ (1 << 31)
			}
		case l.K.Signed():
			x := v.Bits
			if w := l.K.Bits(); w < 64 && x&(1<<(w-1)) != 0 {
				x |= ^uint64(0) << w // sign-extend
			}
			if int64(x) < 0 {
				x = -x
			}
			mag = x
		default:
			mag = v.Bits
		}
		if mag != 0 {
			s[1]++
		}
		if s[2]+mag < s[2] {
			s[2] = ^uint64(0)
		} else {
			s[2] += mag
		}
	}
	return s
}
