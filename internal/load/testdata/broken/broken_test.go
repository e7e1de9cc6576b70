package broken

import "testing"

func PutF(t *testing.T, x int) { undefined(x) }
