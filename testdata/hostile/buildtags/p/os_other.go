//go:build !linux

package p

// Platform names the platform.
func Platform(x int) string { return "other" }
