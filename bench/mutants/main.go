// Command mutants measures how well the regression tests that dowse writes
// for automatic targets (packages without PUTs) catch changed behaviour.
// It copies the non-test source files of a few packages into a fresh
// module (the benchmark's linked list, red-black tree and hash table from
// ../shared/bench, and this repository's testdata/auto stack), runs
// dowse gen on it, checks that the generated tests pass, and then applies
// each mutant below, one at a time: a small edit that changes what an
// exported function returns or leaves behind. A mutant is killed when the
// generated tests fail (or no longer compile) on it.
//
// Usage (from the repository root):
//
//	go run ./bench/mutants [-bench ../shared/bench] [-max-len 3] [-max-time 20s]
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A mutant replaces old, which must occur exactly once in file, by new.
type mutant struct {
	pkg, file, old, new, what string
}

// The packages: directory in the work module, and where their sources come
// from ("bench:" the benchmark module, "repo:" this repository).
var packages = []struct{ dir, from string }{
	{"put/linkedlist", "bench:put/linkedlist"},
	{"put/rbtree", "bench:put/rbtree"},
	{"put/hashtable", "bench:put/hashtable"},
	{"stack", "repo:testdata/auto/stack"},
}

// The mutants, written down once; each changes observable behaviour.
var mutants = []mutant{
	{"put/linkedlist", "linkedlist.go", "if n.head == x {", "if n.head != x {", "Contains: negated comparison"},
	{"put/linkedlist", "linkedlist.go", "xs = append(xs, l.head)", "xs = append([]int{l.head}, xs...)", "ToSlice: reversed order"},
	{"put/linkedlist", "linkedlist.go", "for i := len(xs) - 1; i >= 0; i-- {", "for i := len(xs) - 1; i > 0; i-- {", "FromSlice: drops the first element"},
	{"put/linkedlist", "linkedlist.go", "return &List{head: x, tail: l}", "return &List{head: x + 1, tail: l}", "Cons: wrong head"},
	{"put/linkedlist", "linkedlist.go", "if l.head == x {\n\t\treturn l.tail", "if l.head == x {\n\t\treturn l", "Remove: first element not removed"},
	{"put/linkedlist", "linkedlist.go", "front := &List{head: l.head}", "front := &List{head: l.head + 1}", "Remove: copies a wrong head"},

	{"put/rbtree", "rbtree.go", "func (t *Tree) Len() int { return t.size }", "func (t *Tree) Len() int { return t.size + 1 }", "Len: off by one"},
	{"put/rbtree", "rbtree.go", "\t\tdefault:\n\t\t\treturn true\n", "\t\tdefault:\n\t\t\treturn false\n", "Contains: found key reported missing"},
	{"put/rbtree", "rbtree.go", "\t\tdefault:\n\t\t\treturn false\n", "\t\tdefault:\n\t\t\treturn true\n", "Insert: duplicate reported new"},
	{"put/rbtree", "rbtree.go", "\tt.size++\n", "\tt.size += 2\n", "Insert: size counts twice"},
	{"put/rbtree", "rbtree.go", "\tt.root.red = false\n", "\tt.root.red = true\n", "fixInsert: red root (Check fails)"},
	{"put/rbtree", "rbtree.go", "\tcase key < parent.key:\n\t\tparent.left = z", "\tcase key > parent.key:\n\t\tparent.left = z", "Insert: child on the wrong side"},

	{"put/hashtable", "hashtable.go", "func (h *Table) Len() int { return h.count }", "func (h *Table) Len() int { return h.count + 1 }", "Len: off by one"},
	{"put/hashtable", "hashtable.go", "return e.value, true", "return e.value + 1, true", "Get: wrong value"},
	{"put/hashtable", "hashtable.go", "\t\te.value = value\n", "\t\te.value = value + 1\n", "Set: replacement stores a wrong value"},
	{"put/hashtable", "hashtable.go", "\t\t\th.count--\n", "", "Remove: count not decremented"},
	{"put/hashtable", "hashtable.go", "return h.find(key) != nil", "return h.find(key) == nil", "ContainsKey: negated"},
	{"put/hashtable", "hashtable.go", "\th.count++\n", "", "Set: count not incremented"},

	{"stack", "stack.go", "if len(s.items) >= s.max {", "if len(s.items) > s.max {", "Push: one item too many"},
	{"stack", "stack.go", "return x, nil", "return x + 1, nil", "Pop: wrong value"},
	{"stack", "stack.go", "s.items = s.items[:len(s.items)-1]", "s.items = s.items[:len(s.items)]", "Pop: item not removed"},
	{"stack", "stack.go", "if max <= 0 {", "if max < 0 {", "New: accepts 0"},
	{"stack", "stack.go", "func (s Stack) Len() int { return len(s.items) }", "func (s Stack) Len() int { return cap(s.items) }", "Len: capacity instead of length"},
	{"stack", "stack.go", "\tif x > hi {\n\t\treturn hi", "\tif x >= hi {\n\t\treturn lo", "Clamp: upper bound returns lo"},
}

func main() {
	bench := flag.String("bench", filepath.Join("..", "shared", "bench"), "the benchmark module")
	maxLen := flag.Int("max-len", 3, "dowse gen -max-len")
	maxTime := flag.String("max-time", "20s", "dowse gen -max-time per target")
	flag.Parse()
	log.SetFlags(0)

	root, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	work, err := os.MkdirTemp("", "mutants")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	dowse := filepath.Join(work, "dowse")
	run(root, "go", "build", "-o", dowse, "./cmd/dowse")

	mod := filepath.Join(work, "mod")
	copyFile(filepath.Join(*bench, "go.mod"), filepath.Join(mod, "go.mod"))
	copyFile(filepath.Join(*bench, "go.sum"), filepath.Join(mod, "go.sum"))
	for _, p := range packages {
		src, ok := strings.CutPrefix(p.from, "bench:")
		if ok {
			src = filepath.Join(*bench, src)
		} else {
			src = filepath.Join(root, strings.TrimPrefix(p.from, "repo:"))
		}
		ents, err := os.ReadDir(src)
		if err != nil {
			log.Fatal(err)
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
				copyFile(filepath.Join(src, e.Name()), filepath.Join(mod, p.dir, e.Name()))
			}
		}
	}
	var dirs []string
	for _, p := range packages {
		dirs = append(dirs, "./"+p.dir)
	}
	// dowse exits 3 when it finds failures (the linked list's bug).
	gen := exec.Command(dowse, append([]string{"gen", "-max-len", fmt.Sprint(*maxLen), "-max-time", *maxTime}, dirs...)...)
	gen.Dir = mod
	if out, err := gen.CombinedOutput(); err != nil && gen.ProcessState.ExitCode() != 3 {
		log.Fatalf("dowse gen: %v\n%s", err, out)
	}
	for _, d := range dirs {
		if out, err := goTest(mod, d); err != nil {
			log.Fatalf("the generated tests of %s fail on the original code:\n%s", d, out)
		}
	}

	fmt.Printf("dowse gen -max-len %d -max-time %s, no PUTs; generated tests run on each mutant\n\n", *maxLen, *maxTime)
	fmt.Println("| package | mutant | killed |")
	fmt.Println("|---|---|---|")
	killed := map[string]int{}
	total := map[string]int{}
	for _, m := range mutants {
		file := filepath.Join(mod, m.pkg, m.file)
		orig, err := os.ReadFile(file)
		if err != nil {
			log.Fatal(err)
		}
		if n := strings.Count(string(orig), m.old); n != 1 {
			log.Fatalf("mutant %q: %q occurs %d times in %s", m.what, m.old, n, m.file)
		}
		if err := os.WriteFile(file, []byte(strings.Replace(string(orig), m.old, m.new, 1)), 0o644); err != nil {
			log.Fatal(err)
		}
		_, err = goTest(mod, "./"+m.pkg)
		if err := os.WriteFile(file, orig, 0o644); err != nil {
			log.Fatal(err)
		}
		total[m.pkg]++
		verdict := "survived"
		if err != nil {
			killed[m.pkg]++
			verdict = "yes"
		}
		fmt.Printf("| %s | %s | %s |\n", m.pkg, m.what, verdict)
	}
	fmt.Println()
	fmt.Println("| package | killed | score |")
	fmt.Println("|---|---:|---:|")
	all, allKilled := 0, 0
	for _, p := range packages {
		fmt.Printf("| %s | %d of %d | %.0f%% |\n", p.dir, killed[p.dir], total[p.dir], 100*float64(killed[p.dir])/float64(total[p.dir]))
		all += total[p.dir]
		allKilled += killed[p.dir]
	}
	fmt.Printf("| all | %d of %d | %.0f%% |\n", allKilled, all, 100*float64(allKilled)/float64(all))
}

func goTest(dir, pkg string) ([]byte, error) {
	cmd := exec.Command("go", "test", "-count=1", pkg)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

func run(dir, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		log.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

func copyFile(src, dst string) {
	data, err := os.ReadFile(src)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		log.Fatal(err)
	}
}
