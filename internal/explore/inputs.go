package explore

import (
	"fmt"
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
	if l.K == rt.KString {
		return strconv.Quote(v.Str)
	}
	return constText(l.K, v.Bits)
}

// InputText renders an input vector leaf by leaf, leaving out the
// elements of slices beyond their length: "len(xs)=1, xs[0]=3, x=0".
func InputText(leaves []rt.Leaf, in []rt.Value) string {
	if len(in) != len(leaves) {
		return fmt.Sprintf("<%d values for %d leaves>", len(in), len(leaves))
	}
	var parts []string
	// hidden holds the path prefixes of slice elements past the length.
	var hidden []string
	for i, l := range leaves {
		skip := false
		for _, h := range hidden {
			if strings.HasPrefix(l.Path, h) {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		parts = append(parts, l.Path+"="+valueText(l, in[i]))
		if l.IsLen && strings.HasPrefix(l.Path, "len(") && strings.HasSuffix(l.Path, ")") {
			base := l.Path[len("len(") : len(l.Path)-1]
			for j := int(in[i].Bits); j < l.Max; j++ {
				hidden = append(hidden, fmt.Sprintf("%s[%d]", base, j))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// NameLeaves renames the parameters in the leaves' paths: the runtime
// calls them p0, p1, ...; names[i] replaces p<i> where it is not empty or
// "_".
func NameLeaves(leaves []rt.Leaf, names []string) []rt.Leaf {
	out := make([]rt.Leaf, len(leaves))
	for i, l := range leaves {
		out[i] = l
		out[i].Path = renameRoot(l.Path, names)
	}
	return out
}

func renameRoot(path string, names []string) string {
	pre := 0
	for strings.HasPrefix(path[pre:], "len(") {
		pre += len("len(")
	}
	rest := path[pre:]
	if !strings.HasPrefix(rest, "p") {
		return path
	}
	end := 1
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	i, err := strconv.Atoi(rest[1:end])
	if err != nil || i >= len(names) || names[i] == "" || names[i] == "_" {
		return path
	}
	return path[:pre] + names[i] + rest[end:]
}
