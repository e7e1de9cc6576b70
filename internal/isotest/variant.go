package isotest

import (
	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/load"
)

type packagesPackage = packages.Package

// variant is the variant of p whose non-test files are rewritten: the
// one the workers' instrumentation rewrites too.
func variant(p *load.Package) *packages.Package {
	if p.Test != nil {
		return p.Test
	}
	return p.Plain
}
