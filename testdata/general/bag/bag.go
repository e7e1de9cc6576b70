// Package bag counts words.
package bag

import "sort"

// Bag is a multiset of words that remembers the order it first saw them.
type Bag struct {
	words  []string
	counts map[string]int
}

// New returns a bag holding words.
func New(words ...string) *Bag {
	b := &Bag{counts: map[string]int{}}
	b.Add(words...)
	return b
}

// Add counts words once more each.
func (b *Bag) Add(words ...string) {
	for _, w := range words {
		if b.counts[w] == 0 {
			b.words = append(b.words, w)
		}
		b.counts[w]++
	}
}

// Count is how many times w was added.
func (b *Bag) Count(w string) int {
	return b.counts[w]
}

// Top returns the words added at least min times, most frequent first.
func (b *Bag) Top(min int) []string {
	var out []string
	for _, w := range b.words {
		if b.counts[w] >= min {
			out = append(out, w)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return b.counts[out[i]] > b.counts[out[j]] })
	return out
}
