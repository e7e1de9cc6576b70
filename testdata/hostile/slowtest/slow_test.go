package slowtest

import (
	"fmt"
	"testing"
	"time"
)

func TestSlow(t *testing.T) {
	fmt.Println("waiting")
	time.Sleep(Wait * time.Second)
}
