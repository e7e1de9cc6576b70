// Package grid keeps the cells of a sparse board by their coordinates.
package grid

// Point is a cell's coordinates.
type Point struct{ X, Y int }

// Board is a sparse board: the cells set, by their coordinates.
type Board struct {
	cells map[Point]byte
}

// NewBoard returns an empty board.
func NewBoard() *Board { return &Board{cells: map[Point]byte{}} }

// Set puts c in the cell at x, y.
func (b *Board) Set(x, y int, c byte) { b.cells[Point{x, y}] = c }

// At is the content of the cell at x, y (0 if it is not set).
func (b *Board) At(x, y int) byte { return b.cells[Point{x, y}] }

// Clear empties the cell at x, y.
func (b *Board) Clear(x, y int) { delete(b.cells, Point{x, y}) }

// Len is the number of cells set.
func (b *Board) Len() int { return len(b.cells) }

var landmarks = map[Point]string{{3, 4}: "well", {-2, 7}: "tower"}

// Landmark names the landmark at x, y, if there is one.
func Landmark(x, y int) string {
	return landmarks[Point{X: x, Y: y}]
}

// digram is a pair of adjacent bytes.
type digram [2]byte

// Digrams counts the pairs of adjacent bytes of s.
func Digrams(s string) map[digram]int {
	counts := map[digram]int{}
	for i := 0; i+1 < len(s); i++ {
		counts[digram{s[i], s[i+1]}]++
	}
	return counts
}
