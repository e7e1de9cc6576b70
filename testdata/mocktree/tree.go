// Package mocktree is a fixture of the node bound on generated mock
// types: a binary tree reached only through an interface, whose nodes
// are mocks returned by the methods of other mocks.
package mocktree

// Tree is a node of a binary tree; Left and Right return nil for no
// child.
type Tree interface {
	Left() Tree
	Right() Tree
}

// Shape writes the tree from t as nested parentheses, a node as "(" its
// left subtree, its right subtree ")"; the empty tree as "".
func Shape(t Tree) string {
	if t == nil {
		return ""
	}
	return "(" + Shape(t.Left()) + Shape(t.Right()) + ")"
}
