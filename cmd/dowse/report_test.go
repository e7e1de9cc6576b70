package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/testenv"
)

// reportFixture runs dowse gen -json -html on the module
// testdata/report/<name> and returns the page, the JSON stream and the
// module's directory.
func reportFixture(t *testing.T, name string, args ...string) (page string, stream []byte, dir string) {
	t.Helper()
	files := readTree(t, filepath.Join("..", "..", "testdata", "report", name))
	html := filepath.Join(t.TempDir(), "report.html")
	args = append([]string{"-cache=false", "-json", "-html", html}, args...)
	code, stdout, stderr, dir := runGenIn(t, files, append(args, "./...")...)
	if code != exitOK && code != exitFindings {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), []byte(stdout), dir
}

// streamTargets decodes a dowse gen -json stream.
func streamTargets(t *testing.T, stream []byte) []*output.Target {
	t.Helper()
	var out []*output.Target
	dec := json.NewDecoder(bytes.NewReader(stream))
	for dec.More() {
		tg := new(output.Target)
		if err := dec.Decode(tg); err != nil {
			t.Fatalf("decoding the stream: %v", err)
		}
		out = append(out, tg)
	}
	return out
}

// reportCounts are the figures the page shows, as the JSON stream has
// them.
type reportCounts struct {
	Targets, Rows, Covered, Outcomes, Findings int
}

// countsOf computes from the stream the figures the page must show:
// branch outcomes are counted once per package and site (several sites
// may share a position), covered if any target of the package took them.
func countsOf(targets []*output.Target) reportCounts {
	var c reportCounts
	state := map[string]bool{} // package, site, outcome -> covered
	for _, t := range targets {
		seen := map[string]int{}
		c.Targets++
		c.Rows += len(t.Rows)
		for _, f := range t.Findings {
			if f.Apart == "" {
				c.Findings++
			}
		}
		for _, b := range t.Branches {
			site := fmt.Sprintf("%s %s %d", b.Pos, b.Kind, seen[b.Pos+" "+b.Kind])
			seen[b.Pos+" "+b.Kind]++
			for o, s := range map[string]string{"true": b.True, "false": b.False} {
				k := t.Package + " " + site + " " + o
				state[k] = state[k] || s == output.OutcomeCovered
			}
		}
	}
	for _, covered := range state {
		c.Outcomes++
		if covered {
			c.Covered++
		}
	}
	return c
}

// TestReportFromStream checks that dowse report renders from the -json
// stream the page that dowse gen -html wrote, and that the stream
// carries what the page draws.
func TestReportFromStream(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	page, stream, dir := reportFixture(t, "basic", "-auto", "-max-len", "8", "-max-time", "15s")
	targets := streamTargets(t, stream)
	for _, tg := range targets {
		if len(tg.Branches) != tg.Coverage.Sites {
			t.Errorf("%s: %d branches in the stream, %d sites", tg.Target, len(tg.Branches), tg.Coverage.Sites)
		}
		if len(tg.Rows) == 0 {
			t.Errorf("%s: no rows in the stream", tg.Target)
		}
		for _, r := range tg.Rows {
			if r.Go == "" {
				t.Errorf("%s: row %d (%s) has no Go input", tg.Target, r.Run, r.Input)
			}
		}
	}
	var out, errb bytes.Buffer
	if code := reportMain([]string{"-C", dir}, bytes.NewReader(stream), &out, &errb); code != exitOK {
		t.Fatalf("dowse report: exit code %d\n%s", code, errb.String())
	}
	if out.String() != page {
		t.Errorf("dowse report renders another page than dowse gen -html:\n%s", firstDiff(out.String(), page))
	}
	for _, want := range []string{"a bang after a B", `b: []byte{0x42, 0x00, 0x21}`, "a: 2, b: 0", "needs longer inputs: len(b)=21", "DOWSE_REPRODUCE=1 go test -run '^TestDowsePutKindFailures$' .", "unreachable within the bounds"} {
		if !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("the page does not say %q", want)
		}
	}
}

// TestReportExitCodes checks dowse report's exit codes: a stream that is
// not JSON is an error, arguments are usage errors, an empty stream is
// an empty page.
func TestReportExitCodes(t *testing.T) {
	for _, c := range []struct {
		name, stdin string
		args        []string
		code        int
		out         string
	}{
		{"empty", "", nil, exitOK, `<dd id="n-targets">0</dd>`},
		{"not json", "{oops", nil, exitError, ""},
		{"argument", "", []string{"./..."}, exitUsage, ""},
		{"bad flag", "", []string{"-x"}, exitUsage, ""},
		{"missing input", "", []string{"-i", filepath.Join(t.TempDir(), "none.json")}, exitError, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := reportMain(c.args, strings.NewReader(c.stdin), &out, &errb)
			if code != c.code || !strings.Contains(out.String(), c.out) {
				t.Errorf("exit code %d, want %d; output has %q: %v\nstderr: %s", code, c.code, c.out, strings.Contains(out.String(), c.out), errb.String())
			}
		})
	}
}

// firstDiff shows where a and b first differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(al), len(bl))
}

// browser finds Chromium or Chrome; under CI a missing browser fails the
// test (scripts/setup.sh installs Debian's chromium).
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testenv.Missing(t, "no Chromium or Chrome on PATH (scripts/setup.sh installs Debian's chromium)")
	return ""
}

// TestReportInBrowser loads the page dowse gen -html writes into headless
// Chromium: no console message or script error, the figures it shows are
// those of the JSON stream, and every link within the page leads to an
// element that shows. DOWSE_REPORT_PNG=file saves a screenshot of its top.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	exe := browser(t)
	page, stream, _ := reportFixture(t, "basic", "-auto", "-max-len", "8", "-max-time", "15s")
	want := countsOf(streamTargets(t, stream))
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(page), 0o666); err != nil {
		t.Fatal(err)
	}
	got, png := inBrowser(t, exe, "file://"+file, streamTargets(t, stream), "")
	if got != want {
		t.Errorf("the page shows %+v, the stream says %+v", got, want)
	}
	if want.Findings == 0 || want.Covered == 0 || want.Outcomes == want.Covered {
		t.Errorf("the fixture should have findings and outcomes covered and not: %+v", want)
	}
	if p := os.Getenv("DOWSE_REPORT_PNG"); p != "" {
		if err := os.WriteFile(p, png, 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReportOnStream runs the browser checks on the page dowse report
// renders from any dowse gen -json stream: DOWSE_REPORT_STREAM=file, with
// DOWSE_REPORT_DIR the directory dowse gen ran in. DOWSE_REPORT_PNG=file
// saves a screenshot of the page, DOWSE_REPORT_AT_Y pixels down (default:
// the top).
func TestReportOnStream(t *testing.T) {
	name := os.Getenv("DOWSE_REPORT_STREAM")
	if name == "" {
		t.Skip("no stream: set DOWSE_REPORT_STREAM (and DOWSE_REPORT_DIR) to check the page of a run")
	}
	exe := browser(t)
	stream, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "report.html")
	var errb bytes.Buffer
	if code := reportMain([]string{"-C", os.Getenv("DOWSE_REPORT_DIR"), "-o", file}, bytes.NewReader(stream), io.Discard, &errb); code != exitOK {
		t.Fatalf("dowse report: exit code %d\n%s", code, errb.String())
	}
	targets := streamTargets(t, stream)
	got, png := inBrowser(t, exe, "file://"+file, targets, os.Getenv("DOWSE_REPORT_AT_Y"))
	if want := countsOf(targets); got != want {
		t.Errorf("the page shows %+v, the stream says %+v", got, want)
	}
	if p := os.Getenv("DOWSE_REPORT_PNG"); p != "" {
		if err := os.WriteFile(p, png, 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// inBrowser loads url in headless Chromium (exe) and checks the page:
// it returns the figures it shows and a screenshot of 1280×2300 pixels
// of the page, at pixels from its top.
func inBrowser(t *testing.T, exe, url string, targets []*output.Target, at string) (reportCounts, []byte) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 2300), chromedp.UserDataDir(t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// Start the browser, then listen to its console before the page loads.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	lctx, stop := context.WithCancel(ctx)
	messages := chromedp.Console(lctx)
	var (
		mu   sync.Mutex
		logs []string
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			mu.Lock()
			logs = append(logs, m.String())
			mu.Unlock()
		}
	}()
	tctx, tcancel := context.WithTimeout(ctx, 3*time.Minute)
	defer tcancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	eval := func(expr string, v any) {
		t.Helper()
		res, err := chromedp.Run(tctx, chromedp.Evaluate[json.RawMessage](expr))
		if err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
		if err := json.Unmarshal(res, v); err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
	}
	var c reportCounts
	for id, p := range map[string]*int{"n-targets": &c.Targets, "n-rows": &c.Rows, "n-covered": &c.Covered, "n-outcomes": &c.Outcomes, "n-findings": &c.Findings} {
		var s string
		eval(fmt.Sprintf("document.getElementById(%q).textContent", id), &s)
		if _, err := fmt.Sscan(s, p); err != nil {
			t.Errorf("#%s shows %q", id, s)
		}
	}
	// Each target's line of its package's table shows its own figures.
	var cells []struct{ Target, Rows, Covered, Outcomes string }
	eval(`Array.from(document.querySelectorAll("tr.target")).map(tr => ({Target: tr.dataset.target,
		Rows: tr.cells[4].textContent, Covered: tr.cells[5].textContent.split(" of ")[0], Outcomes: tr.cells[5].textContent.split(" of ")[1]}))`, &cells)
	if len(cells) != len(targets) {
		t.Errorf("%d targets in the tables, %d in the stream", len(cells), len(targets))
	}
	for i := range min(len(cells), len(targets)) {
		tg := targets[i]
		w := struct{ Target, Rows, Covered, Outcomes string }{tg.Target, fmt.Sprint(len(tg.Rows)), fmt.Sprint(tg.Coverage.Covered), fmt.Sprint(tg.Coverage.Outcomes)}
		if cells[i] != w {
			t.Errorf("table line %d shows %+v, the stream says %+v", i+1, cells[i], w)
		}
	}
	// Every link within the page has its target; the page loads nothing.
	var broken []string
	eval(`Array.from(document.querySelectorAll("a[href]")).map(a => a.getAttribute("href")).filter(h => !h.startsWith("#") || !document.getElementById(decodeURIComponent(h.slice(1))))`, &broken)
	if len(broken) > 0 {
		t.Errorf("links without a target in the page: %q", broken)
	}
	var links, resources int
	eval(`document.querySelectorAll("a[href^='#'][href*='-L']").length`, &links)
	eval(`performance.getEntriesByType("resource").length`, &resources)
	if links == 0 {
		t.Error("no link to a source line")
	}
	if resources != 0 {
		t.Errorf("the page loaded %d resources", resources)
	}
	// Following a link to a source line shows that line: a finding's,
	// or on a page without findings, the first.
	var hash string
	var shown bool
	link := "table.findings a[href*='-L']"
	var findingLinks int
	eval(fmt.Sprintf("document.querySelectorAll(%q).length", link), &findingLinks)
	if findingLinks == 0 {
		link = "a[href^='#'][href*='-L']"
	}
	if err := chromedp.Do(tctx, chromedp.Click(link)); err != nil {
		t.Fatalf("clicking the link %s: %v", link, err)
	}
	eval(`location.hash`, &hash)
	eval(`(() => { const el = document.getElementById(decodeURIComponent(location.hash.slice(1))); const r = el && el.getBoundingClientRect(); return !!r && r.height > 0 && r.top >= 0 && r.top < innerHeight; })()`, &shown)
	if !strings.Contains(hash, "-L") || !shown {
		t.Errorf("after following a finding's link the location is %q, its line shown: %v", hash, shown)
	}
	var y int
	if at != "" {
		if _, err := fmt.Sscan(at, &y); err != nil {
			t.Fatalf("offset %q: %v", at, err)
		}
	}
	var scrolled bool
	eval(fmt.Sprintf("window.scrollTo(0, %d), true", y), &scrolled)
	png, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	time.Sleep(200 * time.Millisecond) // let the last console events arrive
	stop()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if logs = slices.DeleteFunc(logs, func(s string) bool { return strings.Contains(s, "about:blank") }); len(logs) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(logs, "\n"))
	}
	return c, png
}
