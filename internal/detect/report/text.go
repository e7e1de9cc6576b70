package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/dowse-go/dowse/internal/detect"
)

// TextHandler writes a report per package. With Verbose, it also lists
// every call site; otherwise only the mock invocations.
type TextHandler struct {
	w       io.Writer
	Verbose bool
	sites   []*detect.Site
	total   detect.Summary
	pkgs    int
	errs    int
	err     error
}

// NewTextHandler returns a handler writing to w.
func NewTextHandler(w io.Writer) *TextHandler { return &TextHandler{w: w} }

func (h *TextHandler) printf(format string, args ...any) {
	if h.err == nil {
		_, h.err = fmt.Fprintf(h.w, format, args...)
	}
}

// PackageError prints the errors of a package that was skipped.
func (h *TextHandler) PackageError(e *detect.PackageError) error {
	h.errs++
	h.printf("%s: not analysed:\n", e.Package)
	for _, msg := range e.Errors {
		h.printf("  %s\n", msg)
	}
	h.printf("\n")
	return h.err
}

// Site buffers a site until its package's summary arrives.
func (h *TextHandler) Site(s *detect.Site) error {
	h.sites = append(h.sites, s)
	return h.err
}

// Summary prints the report of one package.
func (h *TextHandler) Summary(s *detect.Summary) error {
	h.pkgs++
	h.total.Add(s)
	h.printf("%s: %d test files, %d lines\n", s.Package, s.TestFiles, s.TestLOC)
	h.printf("  tests                    %5d  with mocks %d, with mock-holding slices/arrays %d, with mock-holding maps/channels %d\n",
		s.Tests, s.TestsWithMocks, s.TestsWithMockSlices, s.TestsWithMockMaps)
	h.printf("  mock objects             %5d  creation sites\n", s.MockObjects)
	h.printf("  field mocks              %5d  by type %d, in constructors %d, in setup %d, elsewhere %d\n",
		s.FieldMocks.Type+s.FieldMocks.Constructor+s.FieldMocks.Setup+s.FieldMocks.Other,
		s.FieldMocks.Type, s.FieldMocks.Constructor, s.FieldMocks.Setup, s.FieldMocks.Other)
	h.printf("  call sites               %5d  method calls %d: mock invocations %d, real invocations %d; unresolved %d\n",
		s.Sites, s.MethodCalls, s.MockInvocations, s.RealInvocations, s.Unresolved)
	if len(s.Focal) > 0 {
		h.printf("  focal-method candidates\n")
		tests := make([]string, 0, len(s.Focal))
		for t := range s.Focal {
			tests = append(tests, t)
		}
		sort.Strings(tests)
		for _, t := range tests {
			h.printf("    %-30s %s\n", t, strings.Join(s.Focal[t], ", "))
		}
	}
	var listed []*detect.Site
	for _, site := range h.sites {
		if h.Verbose || site.Mock {
			listed = append(listed, site)
		}
	}
	if len(listed) > 0 {
		if h.Verbose {
			h.printf("  call sites\n")
		} else {
			h.printf("  mock invocations\n")
		}
		for _, site := range listed {
			kind := "real"
			switch {
			case site.Mock:
				kind = "MOCK"
			case !site.Method:
				kind = "func"
			}
			h.printf("    %s:%d:%d  %s  %s  (%s)", site.File, site.Line, site.Column, kind, site.Callee, site.Test)
			if site.Reason != "" {
				h.printf("  unresolved: %s", site.Reason)
			}
			h.printf("\n")
		}
	}
	h.printf("\n")
	h.sites = h.sites[:0]
	return h.err
}

// Flush prints the totals over all packages.
func (h *TextHandler) Flush() error {
	t := &h.total
	h.printf("total: %d packages analysed, %d not analysed; %d tests, %d with mocks; %d mock objects; %d field mocks; %d mock invocations of %d method calls (%d call sites)\n",
		h.pkgs, h.errs, t.Tests, t.TestsWithMocks, t.MockObjects,
		t.FieldMocks.Type+t.FieldMocks.Constructor+t.FieldMocks.Setup+t.FieldMocks.Other,
		t.MockInvocations, t.MethodCalls, t.Sites)
	return h.err
}
