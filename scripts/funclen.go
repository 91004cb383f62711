//go:build ignore

// Funclen lists the functions of the module's Go code that are longer than a
// limit (80 lines by default), longest first, tests and benchmarks left out:
//
//	go run scripts/funclen.go [-limit 80] [-all] [dir]
//
// It prints "LINES file:line name" per function and a last line with the
// count, and exits 1 when any function is over -max (no limit by default).
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type fn struct {
	lines int
	pos   string
	name  string
}

func main() {
	limit := flag.Int("limit", 80, "list functions longer than this many lines")
	max := flag.Int("max", 0, "exit 1 if a function is longer than this many lines (0: no check)")
	all := flag.Bool("all", false, "include tests, benchmarks (bench/) and examples")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	fset := token.NewFileSet()
	var long []fn
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" ||
				(!*all && (name == "bench" || name == "examples"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || (!*all && strings.HasSuffix(name, "_test.go")) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if isIgnored(f) {
			return nil
		}
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Body == nil {
				continue
			}
			start, end := fset.Position(d.Pos()), fset.Position(d.End())
			if n := end.Line - start.Line + 1; n > *limit {
				long = append(long, fn{n, fmt.Sprintf("%s:%d", start.Filename, start.Line), funcName(d)})
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "funclen:", err)
		os.Exit(2)
	}
	sort.Slice(long, func(i, j int) bool {
		if long[i].lines != long[j].lines {
			return long[i].lines > long[j].lines
		}
		return long[i].pos < long[j].pos
	})
	over := 0
	for _, f := range long {
		fmt.Printf("%5d %s %s\n", f.lines, f.pos, f.name)
		if *max > 0 && f.lines > *max {
			over++
		}
	}
	fmt.Printf("%d functions over %d lines\n", len(long), *limit)
	if over > 0 {
		fmt.Printf("%d over the maximum of %d lines\n", over, *max)
		os.Exit(1)
	}
}

// isIgnored reports a file built only on request (a //go:build ignore program
// such as this one).
func isIgnored(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if c.Text == "//go:build ignore" {
				return true
			}
		}
	}
	return false
}

func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}
