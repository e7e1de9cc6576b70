// Package config reads a configuration file and tells its errors apart
// as file-handling code does.
package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrEmpty says that a configuration file holds nothing.
var ErrEmpty = errors.New("config: empty")

// Load returns the configuration at path: a default when the file does
// not exist, the operation for other path errors.
func Load(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "default", nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "", fmt.Errorf("config: %s failed", pe.Op)
	}
	if err != nil {
		return "", err
	}
	if len(data) == 0 {
		return "", ErrEmpty
	}
	return string(data), nil
}

// Count counts the bytes of the file at path, reading it in chunks
// until the end.
func Count(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 16)
	total := 0
	for {
		n, err := f.Read(buf)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
		total += n
	}
}

// ErrLocked says that a store is held by another process.
var ErrLocked = errors.New("config: locked")

// Store holds values by key.
type Store interface {
	Get(key string) (string, error)
}

// Fetch reads key from s: a locked store is retried at once, one
// locked further down waits.
func Fetch(s Store, key string) string {
	v, err := s.Get(key)
	switch err {
	case nil:
		return v
	case ErrLocked:
		return "retry"
	}
	if errors.Is(err, ErrLocked) {
		return "wait"
	}
	return "fail"
}
