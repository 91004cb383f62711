package filetabletform

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/filetable"
)

// TestArgsRoundTrip: Parse reads back what Args renders.
func TestArgsRoundTrip(t *testing.T) {
	for _, tf := range []filetable.Tform{
		{Ops: []filetable.Op{{Kind: filetable.Extract, Arg: "Code"}}, DropTitles: true, Output: "out/code.list", Inputs: []string{"out/module.table"}},
		{Ops: []filetable.Op{{Kind: filetable.Replace, Arg: "Code,Code"}}, Output: "t1", Inputs: []string{"t0", "images.list"}},
		{Ops: []filetable.Op{
			{Kind: filetable.Rename, Arg: "Code,Image"}, {Kind: filetable.ReplaceCell, Arg: "Image,0"},
			{Kind: filetable.Merge, Arg: "Tables"}, {Kind: filetable.Replace, Arg: "A,B"},
			{Kind: filetable.CopySingleFile, Arg: "Code,1"},
		}, Output: "-", Inputs: []string{"a", "b", "c"}},
		{Output: "copy", Inputs: []string{"only"}},
	} {
		args := Args(tf)
		got, err := Parse("file-table-tform", args, io.Discard)
		if err != nil {
			t.Errorf("Parse(%q): %v", args, err)
			continue
		}
		if !reflect.DeepEqual(got, tf) {
			t.Errorf("Parse(Args(t)) differs from t:\nargs %q\ngot  %+v\nwant %+v", args, got, tf)
		}
	}
}

// TestArgsOfBuildLines: the command lines the build has always printed
// render back byte for byte.
func TestArgsOfBuildLines(t *testing.T) {
	for _, line := range []string{
		"--extract=Code --drop_titles -o out/spir64/code.list out/llvm_ir/module.table",
		"--replace=Code,Code -o out/spir64/images.table out/llvm_ir/module.table out/spir64/spv.list",
	} {
		tf, err := Parse("file-table-tform", strings.Fields(line), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got := strings.Join(Args(tf), " "); got != line {
			t.Errorf("Args(Parse(%q)) = %q", line, got)
		}
	}
}
