package build

import (
	"fmt"
	"os"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/instrument"
)

// SourceInstrumenter is the Instrumenter of package instrument: the
// source rewrite that reports shadows and branches to the runtime.
type SourceInstrumenter struct{}

// Instrument implements Instrumenter. Calls between the given packages
// pass shadows; calls to any other package are concrete.
func (SourceInstrumenter) Instrument(pkgs []*packages.Package) (map[string][]byte, []Site, error) {
	inst := map[string]bool{}
	for _, p := range pkgs {
		inst[p.PkgPath] = true
	}
	opts := instrument.Options{Instrumented: func(path string) bool { return inst[path] }}
	var sites instrument.Sites
	files := map[string][]byte{}
	for _, p := range pkgs {
		m, err := instrument.PackageWith(p, &sites, opts)
		if err != nil {
			return nil, nil, err
		}
		for f, src := range m {
			if _, dup := files[f]; dup {
				return nil, nil, fmt.Errorf("%s instrumented twice", f)
			}
			files[f] = src
		}
	}
	for _, sk := range sites.Skipped {
		fmt.Fprintf(os.Stderr, "dowse: warning: %s; the file is left uninstrumented (its code runs concretely)\n", sk)
	}
	out := make([]Site, len(sites.List))
	for i, s := range sites.List {
		out[i] = Site{ID: s.ID, Pos: s.Pos, Kind: s.Kind}
	}
	return files, out, nil
}
