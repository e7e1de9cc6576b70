package b

import (
	"testing"

	"example.com/mod/b/c"
)

func TestShout(t *testing.T) {
	if Shout(c.Word) != "HI!" {
		t.Fatal(Shout(c.Word))
	}
}
