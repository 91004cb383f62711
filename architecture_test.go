// Package architecture holds the test that keeps ARCHITECTURE.md true: every
// package of the module is on its map, every import of a package's code
// points to a lower layer, and no test below the last layer imports what is
// in it. (A test may import a package of its own layer or above, as a test of
// props builds its modules with split: Go itself refuses the cycles.)
package architecture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/sycbuild/sycbuild"

// proving is the layer of what only proves or measures the rest (conformance,
// examples, benchmarks).
const proving = 10

// readMap reads the map's table: its rows "| layer | `pkg`[, `pkg`...] | owns |".
// A name ending in "/*" stands for every package under that folder.
func readMap(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	layers := map[string]int{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 4 {
			continue
		}
		layer, err := strconv.Atoi(strings.TrimSpace(cells[1]))
		if err != nil {
			continue // the header and its rule
		}
		for _, name := range strings.Split(cells[2], ",") {
			name = strings.Trim(strings.TrimSpace(name), "`")
			if name == "" {
				t.Fatalf("ARCHITECTURE.md:%d: an empty package name", line)
			}
			if _, dup := layers[name]; dup {
				t.Fatalf("ARCHITECTURE.md:%d: %s is on the map twice", line, name)
			}
			layers[name] = layer
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(layers) == 0 {
		t.Fatal("ARCHITECTURE.md has no map")
	}
	return layers
}

// layerOf is the layer of a package given by its path inside the module.
func layerOf(layers map[string]int, pkg string) (int, bool) {
	if l, ok := layers[pkg]; ok {
		return l, true
	}
	for dir := pkg; ; {
		i := strings.LastIndexByte(dir, '/')
		if i < 0 {
			return 0, false
		}
		dir = dir[:i]
		if l, ok := layers[dir+"/*"]; ok {
			return l, true
		}
	}
}

type listed struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

func TestArchitecture(t *testing.T) {
	layers := readMap(t)
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var problems []string
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.ImportPath == module {
			continue // this test
		}
		name := strings.TrimPrefix(p.ImportPath, module+"/")
		from, ok := layerOf(layers, name)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s is not on the map: add it to ARCHITECTURE.md", name))
			continue
		}
		check := func(imports []string, test bool) {
			for _, imp := range imports {
				dep, ok := strings.CutPrefix(imp, module+"/")
				if !ok || dep == name {
					continue
				}
				to, ok := layerOf(layers, dep)
				switch {
				case !ok:
					problems = append(problems, fmt.Sprintf("%s imports %s, which is not on the map", name, dep))
				case !test && to >= from:
					problems = append(problems, fmt.Sprintf("%s (layer %d) imports %s (layer %d): a package imports lower layers only", name, from, dep, to))
				case test && to == proving && from < proving:
					problems = append(problems, fmt.Sprintf("the tests of %s import %s (layer %d): what only proves or measures the rest is imported by nothing below it", name, dep, to))
				}
			}
		}
		check(p.Imports, false)
		check(p.TestImports, true)
		check(p.XTestImports, true)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestMapFindsProblems checks that the checks above can fail: a map missing
// a package and an import pointing up are both found.
func TestMapFindsProblems(t *testing.T) {
	layers := map[string]int{"llvmir": 2, "bench/*": 9}
	if _, ok := layerOf(layers, "split"); ok {
		t.Error("a package missing from the map was found on it")
	}
	if l, ok := layerOf(layers, "bench/cmd/genll"); !ok || l != 9 {
		t.Errorf("bench/cmd/genll: layer %d, %v; want 9 through bench/*", l, ok)
	}
}

// TestImportGroups: each file's imports are grouped as goimports groups
// them: the standard library's first, then the rest, a blank line between,
// never one group holding both.
func TestImportGroups(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "*.go").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range strings.Fields(string(out)) {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Error(err)
			continue
		}
		if msg := importGroups(fset, f); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

// importGroups says what is wrong with a file's import groups, or "".
func importGroups(fset *token.FileSet, f *ast.File) string {
	lastLine, group, sawOther := 0, -1, false
	groupStd := map[int]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		std := !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
		line := fset.Position(imp.Pos()).Line
		if imp.Doc != nil {
			line = fset.Position(imp.Doc.Pos()).Line
		}
		if group < 0 || line > lastLine+1 {
			group++
			groupStd[group] = std
		} else if groupStd[group] != std {
			return fmt.Sprintf("%s shares a group with imports of the other kind (the standard library's first, then the rest, a blank line between)", path)
		}
		if std && sawOther {
			return fmt.Sprintf("%s comes after imports from outside the standard library", path)
		}
		sawOther = sawOther || !std
		lastLine = fset.Position(imp.End()).Line
	}
	return ""
}
