// Package gen has generic helpers like those of github.com/spf13/cast
// beside plain functions: the generic code asserts values to types that
// mention its type parameters.
package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// Number is the numbers ToE converts to.
type Number interface {
	~int | ~int64 | ~uint8 | ~float64
}

// Basic is the types ToE converts to.
type Basic interface {
	string | bool | Number
}

// ToE converts i to T.
func ToE[T Basic](i any) (T, error) {
	var t T
	var v any
	var err error
	switch any(t).(type) {
	case string:
		v, err = ToStringE(i)
	case int:
		v, err = ToIntE(i)
	default:
		return t, errors.New("unsupported")
	}
	if err != nil {
		return t, err
	}
	return v.(T), nil
}

// Must returns i as a T, and panics on err.
func Must[T any](i any, err error) T {
	if err != nil {
		panic(err)
	}
	return i.(T)
}

// ToSlice makes a slice of i.
func ToSlice[T any](i any) []T {
	switch v := i.(type) {
	case []T:
		return v
	case T:
		return []T{v}
	case map[string]T:
		out := make([]T, 0, len(v))
		for _, e := range v {
			out = append(out, e)
		}
		return out
	case *Box[T]:
		return []T{v.V}
	case struct{ V T }:
		return []T{v.V}
	}
	return nil
}

// Getter is implemented by boxes.
type Getter[T any] interface {
	Get() T
}

// Extract gets a T out of i if i is a Getter or has a Value method.
func Extract[T any](i any) (T, bool) {
	if g, ok := i.(Getter[T]); ok {
		return g.Get(), true
	}
	if g, ok := i.(interface{ Value() T }); ok {
		return g.Value(), true
	}
	var zero T
	return zero, false
}

// Box holds a value.
type Box[T any] struct {
	V T
}

// NewBox boxes v.
func NewBox[T any](v T) *Box[T] { return &Box[T]{V: v} }

// Get returns the boxed value.
func (b Box[T]) Get() T { return b.V }

// Set replaces the boxed value.
func (b *Box[T]) Set(v T) { b.V = v }

// Pair is a key and a value.
type Pair[K comparable, V any] struct {
	Key K
	Val V
}

// Swap returns the pair with key and value swapped.
func (p Pair[K, V]) Swap() Pair[K, K] { return Pair[K, K]{p.Key, p.Key} }

// IntBox is an instance of Box.
type IntBox = Box[int]

// Big reports whether the boxed number is big: a plain function of an
// instantiated generic type.
func Big(b Box[int]) bool {
	return b.V > 100
}

// Describe asks a Getter of strings.
func Describe(g Getter[string]) int {
	if g == nil {
		return -1
	}
	if g.Get() == "x" {
		return 1
	}
	return 0
}

// ToIntE converts i to an int.
func ToIntE(i any) (int, error) {
	switch v := i.(type) {
	case int:
		return v, nil
	case string:
		return strconv.Atoi(v)
	case bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	return 0, errors.New("unable to cast to int")
}

// ToStringE converts i to a string.
func ToStringE(i any) (string, error) {
	switch v := i.(type) {
	case string:
		return v, nil
	case int:
		return strconv.Itoa(v), nil
	}
	return "", errors.New("unable to cast to string")
}

// Clamp limits n to [0, 10]: a plain function beside the generic ones.
func Clamp(n int) int {
	if n < 0 {
		return 0
	}
	if n > 10 {
		return 10
	}
	return n
}

// Save writes v to the file name: generic code calling an isolated
// function.
func Save[T any](name string, v T) error {
	return os.WriteFile(name, []byte(fmt.Sprint(v)), 0o600)
}

// Load reads the file name into a T.
func Load[T any](name string) (T, error) {
	var t T
	data, err := os.ReadFile(name)
	if err != nil {
		return t, err
	}
	err = json.Unmarshal(data, &t)
	return t, err
}

// Exists reports whether the file name exists: a plain function with an
// isolated call, beside the generic ones.
func Exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// ToInt converts i to an int through the generic code, as cast's
// ToInt64E calls toNumberE[int64].
func ToInt(i any) int {
	v, _ := ToE[int](i)
	return v
}

// Ints converts i to a slice of ints through the generic code.
func Ints(i any) []int {
	return ToSlice[int](i)
}

// Text gets a string out of i through the generic code.
func Text(i any) (string, bool) {
	return Extract[string](i)
}
