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

// List is a linked list: recursive through a pointer.
type List struct {
	Val  int8
	Next *List
}

// Node is a binary tree: its unfolding grows fast.
type Node struct {
	Keys        [4]int
	Left, Right *Node
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
