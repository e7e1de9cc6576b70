package wrongput_test

import "testing"

// PutW takes its *testing.T second.
func PutW(n int, t *testing.T) {}
