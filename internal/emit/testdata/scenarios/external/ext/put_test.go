package ext_test

import (
	"testing"

	"example.com/ext"
)

type local struct{ n, m uint16 }

func PutPair(t *testing.T, p ext.Pair, l local, ps []ext.Pair) {}

func PutHidden(t *testing.T, h ext.Hidden) {}

func PutOpaque(t *testing.T, o ext.Opaque) {}

func PutBox(t *testing.T, b ext.Box) {}
