package cfg

import "testing"

func PutLoad(t *testing.T, path string) {
	settings, err := Load(path)
	if err == nil && settings == nil {
		t.Error("no settings and no error")
	}
}
