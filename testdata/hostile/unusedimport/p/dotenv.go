package p

import . "os"

// IsDebug reads the environment: the call is isolated.
func IsDebug(name string) bool {
	return Getenv(name) == "1"
}
