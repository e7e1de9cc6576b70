// Package shard splits the packages of one dowse gen run among the
// machines of a CI fan-out (-shard i/n): every shard loads the same
// packages, computes the same assignment, and explores its own part, so
// the shards write disjoint files and together do the whole run.
//
// Packages are the unit: all generated files of a package come from its
// own targets, so two shards never write the same file. The assignment
// balances the shards by number of targets, greedily (the package with
// the most targets first, to the shard with the fewest so far; ties by
// import path and shard number), which is deterministic for a given set of
// packages and targets.
package shard

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Spec is one shard of a run: shard Index (0-based, as Bazel's
// TEST_SHARD_INDEX and Buildkite's BUILDKITE_PARALLEL_JOB count) of Count.
type Spec struct {
	Index, Count int
}

// Parse parses "i/n" with 0 <= i < n.
func Parse(s string) (Spec, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return Spec{}, fmt.Errorf("shard %q: want i/n, e.g. 1/4", s)
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Spec{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n", s)
	}
	return Spec{Index: i, Count: n}, nil
}

// Unit is one package to assign: its import path and its number of
// targets (its cost).
type Unit struct {
	Path    string
	Targets int
}

// Assign returns, for each unit in the order given, the shard (0-based)
// it belongs to among count shards.
func Assign(units []Unit, count int) []int {
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ua, ub := units[order[a]], units[order[b]]
		if ua.Targets != ub.Targets {
			return ua.Targets > ub.Targets
		}
		return ua.Path < ub.Path
	})
	load := make([]int, max(count, 1))
	out := make([]int, len(units))
	for _, i := range order {
		best := 0
		for s := 1; s < len(load); s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		out[i] = best
		load[best] += max(units[i].Targets, 1)
	}
	return out
}
