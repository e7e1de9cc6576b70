package longconst

import "testing"

func PutSecret(t *testing.T, s string) {
	if IsSecret(s) {
		t.Error("the secret")
	}
}

func PutFifty(t *testing.T, s string) {
	if IsFifty(s) {
		t.Error("fifty bytes")
	}
}

func PutPrefix(t *testing.T, s string) {
	if HasSecret(s) {
		t.Error("the secret as a prefix")
	}
}

func PutBytes(t *testing.T, b []byte) {
	if IsSecretBytes(b) {
		t.Error("the secret in bytes")
	}
}
