package load

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// corpusHeader is the first line of a file in Go's fuzz corpus format.
const corpusHeader = "go test fuzz v1"

// MaxCorpusSeeds bounds the seeds read from one corpus directory.
const MaxCorpusSeeds = 1000

// ReadCorpus reads the seeds in a fuzz corpus directory (testdata/fuzz/FuzzXxx
// of a package, or the go command's fuzz cache for the target), in file
// name order, at most MaxCorpusSeeds of them. Values are int64, uint64,
// float64, bool, string and []byte; a file with a value of another type
// (a complex number, a rune slice) or in another format is skipped. A missing directory has no seeds.
func ReadCorpus(dir string) ([][]any, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading fuzz corpus: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var seeds [][]any
	for _, name := range names {
		if len(seeds) == MaxCorpusSeeds {
			break
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("reading fuzz corpus: %w", err)
		}
		if seed, err := ParseCorpusFile(data); err == nil {
			seeds = append(seeds, seed)
		}
	}
	return seeds, nil
}

// ParseCorpusFile parses one file in Go's fuzz corpus format: the header
// line, then one value a line, written as a conversion of a literal
// (int64(-3), uint8(7), rune('a'), bool(true), string("x"), []byte("y")).
func ParseCorpusFile(data []byte) ([]any, error) {
	lines := strings.Split(string(bytes.TrimRight(data, "\n")), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != corpusHeader {
		return nil, fmt.Errorf("not a fuzz corpus file")
	}
	var vals []any
	for _, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		v, err := parseCorpusValue(line)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", line, err)
		}
		vals = append(vals, v)
	}
	return vals, nil
}

func parseCorpusValue(line string) (any, error) {
	e, err := parser.ParseExpr(line)
	if err != nil {
		return nil, err
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, fmt.Errorf("not a conversion")
	}
	var typ string
	switch fun := call.Fun.(type) {
	case *ast.Ident:
		typ = fun.Name
	case *ast.ArrayType:
		if elt, ok := fun.Elt.(*ast.Ident); ok && fun.Len == nil && (elt.Name == "byte" || elt.Name == "uint8") {
			typ = "[]byte"
		}
	}
	arg := call.Args[0]
	neg := false
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, arg = true, u.X
	}
	lit, isLit := arg.(*ast.BasicLit)
	switch typ {
	case "bool":
		if id, ok := arg.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
			return id.Name == "true", nil
		}
	case "string", "[]byte":
		if isLit && lit.Kind == token.STRING && !neg {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return nil, err
			}
			if typ == "[]byte" {
				return []byte(s), nil
			}
			return s, nil
		}
	case "int", "int8", "int16", "int32", "int64", "rune":
		if n, ok := intLiteral(lit, isLit); ok {
			if neg {
				n = -n
			}
			return n, nil
		}
	case "float32", "float64":
		if isLit && (lit.Kind == token.FLOAT || lit.Kind == token.INT) {
			f, err := strconv.ParseFloat(lit.Value, 64)
			if err != nil {
				return nil, err
			}
			if neg {
				f = -f
			}
			return f, nil
		}
		if c, ok := arg.(*ast.CallExpr); ok && len(c.Args) == 1 {
			// math.Float64frombits(0x...), as go test writes NaNs and
			// infinities.
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Float64frombits" || sel.Sel.Name == "Float32frombits") {
				if bl, ok := c.Args[0].(*ast.BasicLit); ok && bl.Kind == token.INT && !neg {
					u, err := strconv.ParseUint(bl.Value, 0, 64)
					if err != nil {
						return nil, err
					}
					if sel.Sel.Name == "Float32frombits" {
						return float64(math.Float32frombits(uint32(u))), nil
					}
					return math.Float64frombits(u), nil
				}
			}
		}
	case "uint", "uint8", "byte", "uint16", "uint32", "uint64", "uintptr":
		if isLit && !neg {
			if lit.Kind == token.CHAR {
				r, _, _, err := strconv.UnquoteChar(lit.Value[1:len(lit.Value)-1], '\'')
				return uint64(r), err
			}
			return strconv.ParseUint(lit.Value, 0, 64)
		}
	}
	return nil, fmt.Errorf("unsupported value")
}

// intLiteral is the value of an integer or character literal.
func intLiteral(lit *ast.BasicLit, isLit bool) (int64, bool) {
	if !isLit {
		return 0, false
	}
	switch lit.Kind {
	case token.INT:
		n, err := strconv.ParseInt(lit.Value, 0, 64)
		return n, err == nil
	case token.CHAR:
		r, _, _, err := strconv.UnquoteChar(lit.Value[1:len(lit.Value)-1], '\'')
		return int64(r), err == nil
	}
	return 0, false
}
