package mocks

import (
	"io"
	"testing"
)

// PutSave fails for a store that is flushed and holds more than 100.
func PutSave(t *testing.T, s Store, key string, v int) {
	if s == nil {
		t.Skip("assumes a store")
	}
	kind, err := Save(s, key, v)
	if err == nil && kind == "big" {
		t.Errorf("Save wrote to a big store")
	}
}

// PutLevel fails for a store of level 2.
func PutLevel(t *testing.T, s Store) {
	if s != nil && Level(s) == 2 {
		t.Errorf("a high-level store")
	}
}

// PutHeader fails for a reader that is also a Kinder and yields "GO":
// a mock whose Read fills its argument.
func PutHeader(t *testing.T, r io.Reader) {
	if r != nil && Header(r) == "kinder go" {
		t.Errorf("a kinder GO stream")
	}
}
