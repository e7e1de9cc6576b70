// Package go112 is a module of language version go1.12: its generated
// tests may use no any, no generic function, nothing newer.
package go112

import (
	"errors"
	"reflect"
)

// Store keeps values by key.
type Store interface {
	Put(key string, v interface{}) error
	Get(key string) (interface{}, bool)
}

// Save puts v+1 under key, unless key is empty.
func Save(s Store, key string, v int) error {
	if key == "" {
		return errors.New("empty key")
	}
	if _, ok := s.Get(key); ok {
		return errors.New("exists")
	}
	return s.Put(key, v+1)
}

// Fields counts the fields of struct types.
func Fields(t reflect.Type) int {
	if t != nil && t.Kind() == reflect.Struct {
		return t.NumField()
	}
	return 0
}

// Point is a struct type for Fields.
type Point struct{ X, Y int }
