package emit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/types"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dowse-go/dowse/rt"
)

// corpusVersion is the first line of a file in Go's seed corpus format
// (testdata/fuzz/FuzzXxx/*), version 1.
const corpusVersion = "go test fuzz v1"

// checkFuzzParams checks that a fuzz function's parameters have types
// "go test" accepts in corpus files.
func checkFuzzParams(params []*types.Var) error {
	for i, p := range params {
		if _, err := corpusType(p.Type()); err != nil {
			return fmt.Errorf("%s: %w", paramLabel(p, i), err)
		}
	}
	return nil
}

// corpusType returns the name Go's corpus format uses for a fuzz parameter
// type: a predeclared type or []byte, never a named type.
func corpusType(t types.Type) (string, error) {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.Bool, types.String, types.Int, types.Int8, types.Int16, types.Int64,
			types.Uint, types.Uint16, types.Uint32, types.Uint64, types.Float32, types.Float64:
			return types.Typ[u.Kind()].Name(), nil
		case types.Int32:
			return "int32", nil
		case types.Uint8:
			return "byte", nil
		}
	case *types.Slice:
		if isByte(u.Elem()) {
			return "[]byte", nil
		}
	}
	return "", fmt.Errorf("type %s cannot be a fuzz argument", t)
}

// corpusFile encodes one input as a seed corpus file the way "go test"
// writes them: a version line, then one line per argument, T(literal).
func corpusFile(vals []*value) ([]byte, error) {
	var b strings.Builder
	b.WriteString(corpusVersion + "\n")
	for _, v := range vals {
		typ, err := corpusType(v.t)
		if err != nil {
			return nil, err
		}
		var arg string
		switch typ {
		case "bool":
			arg = strconv.FormatBool(v.bits != 0)
		case "string":
			arg = strconv.Quote(v.str)
		case "[]byte":
			bs := make([]byte, len(v.elems))
			for i, e := range v.elems {
				bs[i] = byte(e.bits)
			}
			arg = strconv.Quote(string(bs))
		case "byte":
			// Every byte has a character literal; Go prefers it.
			arg = strconv.QuoteRune(rune(v.bits))
		case "float32", "float64":
			// As go test writes them: a literal, or the bits of a NaN,
			// an infinity or a negative zero.
			f := v.floatValue()
			switch {
			case math.IsNaN(f) || math.IsInf(f, 0) || f == 0 && math.Signbit(f):
				if typ == "float32" {
					arg = fmt.Sprintf("math.Float32frombits(0x%x)", uint32(v.bits))
				} else {
					arg = fmt.Sprintf("math.Float64frombits(0x%x)", v.bits)
				}
			case typ == "float32":
				arg = strconv.FormatFloat(f, 'g', -1, 32)
			default:
				arg = strconv.FormatFloat(f, 'g', -1, 64)
			}
		case "int32":
			// A rune literal where one exists, as Go does.
			if r := rune(v.int64()); utf8.ValidRune(r) {
				typ, arg = "rune", strconv.QuoteRune(r)
			} else {
				arg = strconv.FormatInt(v.int64(), 10)
			}
		default:
			if v.signed() {
				arg = strconv.FormatInt(v.int64(), 10)
			} else {
				arg = strconv.FormatUint(v.bits, 10)
			}
		}
		b.WriteString(typ + "(" + arg + ")\n")
	}
	return []byte(b.String()), nil
}

// corpusName names a corpus file by its content: CorpusPrefix and the
// first 16 hex digits of the content's SHA-256.
func corpusName(content []byte) string {
	sum := sha256.Sum256(content)
	return CorpusPrefix + hex.EncodeToString(sum[:8])
}

// CorpusFile encodes one input of a fuzz function with parameters params
// (inputs, one per leaf of layout l) as a file of Go's seed corpus format.
func CorpusFile(params []*types.Var, l *rt.Layout, inputs []rt.Value) ([]byte, error) {
	vals, err := decodeValues(params, l, nil, inputs, false)
	if err != nil {
		return nil, err
	}
	return corpusFile(vals)
}
