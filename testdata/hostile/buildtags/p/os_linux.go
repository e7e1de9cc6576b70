// Package p has files for some platforms and tags only.
package p

// Platform names the platform.
func Platform(x int) string {
	if x > 3 {
		return "linux-big"
	}
	return "linux"
}
