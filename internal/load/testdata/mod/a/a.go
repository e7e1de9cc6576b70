package a

// Kind is a named integer.
type Kind int

// Pair is a struct of supported fields.
type Pair struct {
	X, Y int
	Name string
	_    int
}

// Hidden has an unexported field.
type Hidden struct {
	n int
}

// Tree is recursive.
type Tree struct {
	Kids []Tree
}

func Abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
