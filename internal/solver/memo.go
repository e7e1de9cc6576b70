package solver

import "sync"

// memo is a bounded map safe for concurrent use, for facts derived from
// interned terms: when it holds limit entries it forgets them all.
type memo[K comparable, V any] struct {
	mu    sync.Mutex
	m     map[K]V
	limit int
}

func newMemo[K comparable, V any](limit int) *memo[K, V] {
	return &memo[K, V]{m: map[K]V{}, limit: limit}
}

func (m *memo[K, V]) get(k K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[k]
	return v, ok
}

func (m *memo[K, V]) put(k K, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m) >= m.limit {
		m.m = map[K]V{}
	}
	m.m[k] = v
}
