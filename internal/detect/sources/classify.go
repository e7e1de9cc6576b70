package sources

import (
	"bytes"
	"go/token"
	"go/types"
	"os"
	"strings"
	"sync"
)

// A Match says why a type is a mock type.
type Match struct {
	Framework string // entry of the table (or "config") that matched
	How       string // "type", "embeds", "shape", "header"
}

// A Classifier decides which types are mock types and which functions are
// mock sources. It caches its answers and is safe for concurrent use.
type Classifier struct {
	fset      *token.FileSet
	sources   []Source
	notMock   map[string]bool
	typeSrc   map[string]string // "pkgpath.Name" -> framework
	funcSrc   map[string]string // qualified func -> framework
	mu        sync.Mutex
	types     map[*types.TypeName]*Match
	headers   map[string]string // file name -> framework ("" if none)
	readFiles func(name string) ([]byte, error)
}

// NewClassifier returns a classifier for the built-in table extended by cfg
// (which may be nil). fset resolves declaration positions to files, whose
// headers are read on demand.
func NewClassifier(fset *token.FileSet, cfg *Config) *Classifier {
	c := &Classifier{
		fset:      fset,
		sources:   append([]Source(nil), Builtin...),
		notMock:   map[string]bool{},
		typeSrc:   map[string]string{},
		funcSrc:   map[string]string{},
		types:     map[*types.TypeName]*Match{},
		headers:   map[string]string{},
		readFiles: readHeader,
	}
	if cfg != nil {
		c.sources = append(c.sources, Source{Framework: "config", Types: cfg.MockTypes, Funcs: cfg.MockFuncs})
		for _, t := range cfg.NotMockTypes {
			c.notMock[t] = true
		}
	}
	for _, s := range c.sources {
		for _, t := range s.Types {
			c.typeSrc[t] = s.Framework
		}
		for _, f := range s.Funcs {
			c.funcSrc[f] = s.Framework
		}
	}
	return c
}

// MockType reports whether values of type t (or of the type t points to)
// are mock objects.
func (c *Classifier) MockType(t types.Type) *Match {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok {
		return nil
	}
	return c.named(n.Origin())
}

func (c *Classifier) named(n *types.Named) *Match {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return nil
	}
	c.mu.Lock()
	m, ok := c.types[obj]
	c.mu.Unlock()
	if ok {
		return m
	}
	m = c.classify(n)
	c.mu.Lock()
	c.types[obj] = m
	c.mu.Unlock()
	return m
}

func (c *Classifier) classify(n *types.Named) *Match {
	q := Qualified(n.Obj())
	if c.notMock[q] {
		return nil
	}
	if fw, ok := c.typeSrc[q]; ok {
		return &Match{Framework: fw, How: "type"}
	}
	if st := structOf(n); st != nil {
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			ft := types.Unalias(f.Type())
			if p, ok := ft.(*types.Pointer); ok {
				ft = types.Unalias(p.Elem())
			}
			if fn, ok := ft.(*types.Named); ok && fn.Obj().Pkg() != nil {
				if fw, ok := c.typeSrc[Qualified(fn.Obj())]; ok {
					return &Match{Framework: fw, How: "embeds"}
				}
			}
		}
	}
	header := c.header(n.Obj())
	for _, s := range c.sources {
		if s.Header != "" && s.Header == header && s.HeaderShape != nil && s.HeaderShape(n) {
			return &Match{Framework: s.Framework, How: "header"}
		}
	}
	for _, s := range c.sources {
		if s.Shape != nil && s.Shape(n) {
			return &Match{Framework: s.Framework, How: "shape"}
		}
	}
	return nil
}

// MockFunc reports whether fn (a function or method) is configured as a
// mock source: its results are mocks whatever their static type.
func (c *Classifier) MockFunc(fn *types.Func) string {
	if len(c.funcSrc) == 0 || fn == nil {
		return ""
	}
	return c.funcSrc[Qualified(fn.Origin())]
}

// GeneratedMockFile reports the framework whose generator header the file
// declaring obj carries, or "".
func (c *Classifier) GeneratedMockFile(pos token.Pos) string {
	if c.fset == nil || !pos.IsValid() {
		return ""
	}
	return c.fileHeader(c.fset.Position(pos).Filename)
}

func (c *Classifier) header(obj types.Object) string {
	return c.GeneratedMockFile(obj.Pos())
}

func (c *Classifier) fileHeader(name string) string {
	if name == "" {
		return ""
	}
	c.mu.Lock()
	h, ok := c.headers[name]
	c.mu.Unlock()
	if ok {
		return h
	}
	h = ""
	if data, err := c.readFiles(name); err == nil {
		h = c.MatchHeader(data)
	}
	c.mu.Lock()
	c.headers[name] = h
	c.mu.Unlock()
	return h
}

// MatchHeader returns the Header of the table entry whose generator wrote
// src (the beginning of a Go file), or "".
func (c *Classifier) MatchHeader(src []byte) string {
	for _, line := range bytes.Split(src, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if bytes.HasPrefix(line, []byte("package ")) {
			break
		}
		if !bytes.HasPrefix(line, []byte("// Code generated")) {
			continue
		}
		for _, s := range c.sources {
			if s.Header != "" && strings.HasPrefix(string(line), s.Header) {
				return s.Header
			}
		}
	}
	return ""
}

// readHeader reads the first few kilobytes of a file: generator headers
// precede the package clause.
func readHeader(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, err := f.Read(buf)
	if n > 0 {
		return buf[:n], nil
	}
	return nil, err
}
