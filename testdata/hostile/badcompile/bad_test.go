package badcompile

import "testing"

func TestF(t *testing.T) { F() }
