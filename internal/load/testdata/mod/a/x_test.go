package a_test

import (
	"testing"

	"example.com/mod/a"
)

func PutExternal(t *testing.T, p a.Pair, k a.Kind) {}

func PutExternalHidden(t *testing.T, h a.Hidden) {}
