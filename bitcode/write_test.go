package bitcode

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// runTool runs an LLVM tool and returns its standard output; any error or
// message on standard error fails the test.
func runTool(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testenv.Tool(t, name), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

// testModule builds a module that uses every kind of type, constant,
// global attribute and instruction the writer has; data names a file.
func testModule(data string, size uint64) *Module {
	m := NewModule()
	m.SourceFilename = "test.module"
	m.Triple = "x86_64-unknown-linux-gnu"
	m.DataLayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
	ptr, i1, i8, i16, i32, i64 := m.Ptr(), m.Int(1), m.Int(8), m.Int(16), m.Int(32), m.Int(64)
	pair := m.NamedStruct("pair", i16, ptr)
	anon := m.Struct(i1, i64, pair)
	arr := m.Array(3, anon)
	str := m.Array(6, i8)
	zeros := m.Array(4, i8)
	fileT := m.Array(size, i8)

	blob := m.AddGlobal(&Global{Name: "file.data", ValueType: fileT, Constant: true, Linkage: PrivateLinkage, UnnamedAddr: GlobalUnnamedAddr,
		Section: "__DATA_SECTION", Init: &FileBytes{Type: fileT, File: BlobFile{Name: data, Size: size}}})
	s := m.AddGlobal(&Global{Name: "str", ValueType: str, Constant: true, Linkage: InternalLinkage, UnnamedAddr: GlobalUnnamedAddr,
		Init: &Bytes{Type: str, Data: []byte("hi\"\\\x00\xff")}})
	m.AddGlobal(&Global{Name: "zeros", ValueType: zeros, Constant: true, Linkage: InternalLinkage, Init: &Bytes{Type: zeros, Data: make([]byte, 4)}})
	ext := m.AddGlobal(&Global{Name: "ext", ValueType: i32})
	shared := Int{Type: i64, Value: 1<<64 - 1} // -1, used twice
	elems := []Constant{
		&Aggregate{Type: anon, Elems: []Constant{Int{Type: i1, Value: 1}, shared, &Aggregate{Type: pair, Elems: []Constant{Int{Type: i16, Value: 0xfffe}, s}}}},
		&Aggregate{Type: anon, Elems: []Constant{Int{Type: i1, Value: 0}, Int{Type: i64, Value: 1 << 63}, Null{Type: pair}}},
		&Aggregate{Type: anon, Elems: []Constant{Null{Type: i1}, &PtrToInt{Type: i64, Value: ext}, &Aggregate{Type: pair, Elems: []Constant{
			Int{Type: i16, Value: 7},
			&GEP{Source: arr, Base: blob, Indices: []Constant{Int{Type: i64, Value: 0}, Int{Type: i64, Value: 2}, Int{Type: i32, Value: 2}, Int{Type: i32, Value: 1}}},
		}}}},
	}
	table := m.AddGlobal(&Global{Name: "table", ValueType: arr, Linkage: ExternalLinkage, Align: 32, Section: "tables",
		Init: &Aggregate{Type: arr, Elems: elems}})
	m.AddGlobal(&Global{Name: "end", ValueType: ptr, Constant: true, Linkage: InternalLinkage, UnnamedAddr: LocalUnnamedAddr,
		Init: &GEP{Source: arr, Base: table, InBounds: true, Indices: []Constant{Int{Type: i64, Value: 1}, Int{Type: i64, Value: 0}}}})
	m.AddGlobal(&Global{Name: "minus", ValueType: i64, Linkage: InternalLinkage, Init: shared})

	get := m.AddFunction(&Function{Name: "get", Type: m.Func(i32, ptr, i64)})
	use := m.AddFunction(&Function{Name: "use", Type: m.Func(m.Void(), ptr)})
	m.AddFunction(&Function{Name: "caller", Type: m.Func(m.Void()), Linkage: InternalLinkage, UnnamedAddr: GlobalUnnamedAddr,
		Section: ".text.caller", Block: "entry", Body: []Instruction{
			&Call{Callee: get, Args: []Constant{table, shared}},
			&Call{Callee: use, Args: []Constant{s}},
			&Call{Callee: get, Args: []Constant{Null{Type: ptr}, Int{Type: i64, Value: 5}}},
			Ret{},
		}})
	return m
}

// TestModuleReadByLLVM checks the module's bitcode with LLVM's tools: the
// verifier accepts it; LLVM 15, 19 and 22 read it; it prints the expected
// lines; and LLVM's own bitcode of the text llvm-dis-19 prints prints the
// same text.
func TestModuleReadByLLVM(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	payload := []byte("\x00\x01 file bytes \xfe\xff!")
	if err := os.WriteFile(data, payload, 0o644); err != nil {
		t.Fatal(err)
	}
	m := testModule(data, uint64(len(payload)))
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	bc := filepath.Join(dir, "m.bc")
	if err := os.WriteFile(bc, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	runTool(t, "opt-19", "-passes=verify", "-disable-output", bc)
	runTool(t, "opt-22", "-passes=verify", "-disable-output", bc)
	text := runTool(t, "llvm-dis-19", "-o", "-", bc)
	for _, want := range []string{
		`source_filename = "test.module"`,
		`target datalayout = "e-m:e-p270:32:32`,
		`target triple = "x86_64-unknown-linux-gnu"`,
		`%pair = type { i16, ptr }`,
		`@file.data = private unnamed_addr constant [17 x i8] c"\00\01 file bytes \FE\FF!", section "__DATA_SECTION"`,
		`@str = internal unnamed_addr constant [6 x i8] c"hi\22\\\00\FF"`,
		`@zeros = internal constant [4 x i8] zeroinitializer`,
		`@ext = external global i32`,
		`@table = global [3 x { i1, i64, %pair }] [{ i1, i64, %pair } { i1 true, i64 -1, %pair { i16 -2, ptr @str } }, { i1, i64, %pair } { i1 false, i64 -9223372036854775808, %pair zeroinitializer }, { i1, i64, %pair } { i1 false, i64 ptrtoint (ptr @ext to i64), %pair { i16 7, ptr getelementptr ([3 x { i1, i64, %pair }], ptr @file.data, i64 0, i64 2, i32 2, i32 1) } }], section "tables", align 32`,
		`@end = internal local_unnamed_addr constant ptr getelementptr inbounds ([3 x { i1, i64, %pair }], ptr @table, i64 1, i64 0)`,
		`@minus = internal global i64 -1`,
		"define internal void @caller() unnamed_addr section \".text.caller\" {\nentry:\n" +
			"  %0 = call i32 @get(ptr @table, i64 -1)\n  call void @use(ptr @str)\n  %1 = call i32 @get(ptr null, i64 5)\n  ret void\n}",
		`declare i32 @get(ptr, i64)`,
		`declare void @use(ptr)`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("llvm-dis-19 does not print\n%s\nin:\n%s", want, text)
		}
	}
	strip := func(s string) string { return s[strings.IndexByte(s, '\n')+1:] } // the ModuleID line names the file
	if other := runTool(t, "llvm-dis-22", "-o", "-", bc); !strings.Contains(other, "@table = global [3 x { i1, i64, %pair }]") {
		t.Errorf("llvm-dis-22 printed:\n%s", other)
	}
	if other := runTool(t, "llvm-dis-15", "-o", "-", bc); !strings.Contains(other, "@end = internal local_unnamed_addr constant ptr getelementptr inbounds") {
		t.Errorf("llvm-dis-15 printed:\n%s", other)
	}
	ll := filepath.Join(dir, "m.ll")
	if err := os.WriteFile(ll, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	llvmBC := filepath.Join(dir, "llvm.bc")
	runTool(t, "llvm-as-19", "-o", llvmBC, ll)
	if again := runTool(t, "llvm-dis-19", "-o", "-", llvmBC); strip(again) != strip(text) {
		t.Errorf("LLVM's bitcode of the same text prints:\n%s\nours:\n%s", again, text)
	}
	obj := filepath.Join(dir, "m.o")
	runTool(t, "llc-19", "-filetype=obj", "-o", obj, bc)
	runTool(t, "llc-22", "-filetype=obj", "-o", obj, bc)

	// The same module gives the same bytes.
	var again bytes.Buffer
	if _, err := testModule(data, uint64(len(payload))).WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Errorf("a second write differs (%v)", err)
	}
}

// TestFileBlobChanged checks that a blob file that changed size between
// the module's making and its writing is an error naming the file.
func TestFileBlobChanged(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	for _, c := range []struct {
		now  string
		want string
	}{{"short", "file shrank while being copied"}, {"longer than it was", "file grew while being copied"}} {
		if err := os.WriteFile(data, []byte("0123456789abcdef!"), 0o644); err != nil {
			t.Fatal(err)
		}
		m := testModule(data, 17)
		if err := os.WriteFile(data, []byte(c.now), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := m.WriteTo(&bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), data) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("file now %q: error %v, want %q", c.now, err, c.want)
		}
	}
	os.Remove(data)
	if _, err := testModule(data, 17).WriteTo(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), data) {
		t.Errorf("missing file: error %v", err)
	}
}

// TestModuleErrors checks that modules LLVM would refuse are errors, not
// panics or bad files, and that nothing is written for them.
func TestModuleErrors(t *testing.T) {
	other := NewModule()
	foreign := other.AddGlobal(&Global{Name: "foreign", ValueType: other.Int(8), Init: Int{Type: other.Int(8)}})
	cases := []struct {
		name string
		edit func(m *Module)
		want string
	}{
		{"nil global", func(m *Module) { m.AddGlobal(nil) }, "nil global"},
		{"no value type", func(m *Module) { m.AddGlobal(&Global{Name: "g"}) }, "@g: its value type is not a sized type"},
		{"void value type", func(m *Module) { m.AddGlobal(&Global{Name: "g", ValueType: m.Void()}) }, "@g: its value type is not a sized type"},
		{"name twice", func(m *Module) { m.AddGlobal(&Global{Name: "str", ValueType: m.Int(8)}) }, "@str: the name is already used"},
		{"global twice", func(m *Module) { m.AddGlobal(m.globals[0]) }, "added twice"},
		{"internal declaration", func(m *Module) { m.AddGlobal(&Global{Name: "d", ValueType: m.Int(8), Linkage: InternalLinkage}) }, "a declaration must have external linkage"},
		{"bad alignment", func(m *Module) { m.globals[1].Align = 3 }, "alignment 3 is not a power of two"},
		{"integer width", func(m *Module) { m.AddGlobal(&Global{Name: "w", ValueType: m.Int(65), Init: Int{Type: m.Int(65)}}) }, "integer widths are 1 to 64"},
		{"type mismatch", func(m *Module) { m.AddGlobal(&Global{Name: "x", ValueType: m.Int(8), Init: Int{Type: m.Int(16)}}) }, "i16 constant where i8 is expected"},
		{"bytes length", func(m *Module) {
			m.AddGlobal(&Global{Name: "b", ValueType: m.Array(3, m.Int(8)), Init: &Bytes{Type: m.Array(3, m.Int(8)), Data: []byte("ab")}})
		}, "2 bytes for a constant of type [3 x i8]"},
		{"elements", func(m *Module) {
			t := m.Array(2, m.Int(8))
			m.AddGlobal(&Global{Name: "a", ValueType: t, Init: &Aggregate{Type: t, Elems: []Constant{Int{Type: m.Int(8)}}}})
		}, "1 elements for [2 x i8]"},
		{"nil element", func(m *Module) {
			t := m.Array(1, m.Ptr())
			m.AddGlobal(&Global{Name: "a", ValueType: t, Init: &Aggregate{Type: t, Elems: []Constant{nil}}})
		}, "element 0: nil constant"},
		{"nil aggregate", func(m *Module) {
			var a *Aggregate
			m.AddGlobal(&Global{Name: "a", ValueType: m.Int(8), Init: a})
		}, "where i8 is expected"},
		{"cycle", func(m *Module) {
			g := &GEP{Source: m.Int(8), Indices: []Constant{Int{Type: m.Int(64)}}}
			g.Base = g
			m.AddGlobal(&Global{Name: "c", ValueType: m.Ptr(), Init: g})
		}, "a constant that contains itself"},
		{"named struct bodies", func(m *Module) { m.NamedStruct("pair", m.Int(8)) }, "type %pair defined twice with different bodies"},
		{"foreign global", func(m *Module) { m.AddGlobal(&Global{Name: "p", ValueType: m.Ptr(), Init: foreign}) }, "a global value of another module"},
		{"foreign type", func(m *Module) { m.AddGlobal(&Global{Name: "p", ValueType: Type{id: 1000}}) }, "its value type is not a sized type"},
		{"gep struct index", func(m *Module) {
			m.AddGlobal(&Global{Name: "p", ValueType: m.Ptr(), Init: &GEP{Source: m.NamedStruct("pair", m.Int(16), m.Ptr()), Base: m.globals[0],
				Indices: []Constant{Int{Type: m.Int(64)}, Int{Type: m.Int(64), Value: 1}}}})
		}, "a struct field needs an i32 in range"},
		{"gep into a scalar", func(m *Module) {
			m.AddGlobal(&Global{Name: "p", ValueType: m.Ptr(), Init: &GEP{Source: m.Int(8), Base: m.globals[0],
				Indices: []Constant{Int{Type: m.Int(64)}, Int{Type: m.Int(64)}}}})
		}, "steps into i8"},
		{"gep index", func(m *Module) {
			m.AddGlobal(&Global{Name: "p", ValueType: m.Ptr(), Init: &GEP{Source: m.Int(8), Base: m.globals[0], Indices: []Constant{Null{Type: m.Int(64)}}}})
		}, "index 0 is not an integer constant"},
		{"ptrtoint to ptr", func(m *Module) {
			m.AddGlobal(&Global{Name: "p", ValueType: m.Ptr(), Init: &PtrToInt{Type: m.Ptr(), Value: m.globals[0]}})
		}, "ptrtoint to ptr"},
		{"blob too large", func(m *Module) {
			t := m.Array(1<<32, m.Int(8))
			m.AddGlobal(&Global{Name: "big", ValueType: t, Init: &FileBytes{Type: t, File: BlobFile{Name: "huge.bin", Size: 1 << 32}}})
		}, "huge.bin: 4294967296 bytes: bitcode holds at most 4294967295"},
		{"argument count", func(m *Module) { m.funcs[2].Body[0].(*Call).Args = nil }, "0 arguments for 2 parameters of @get"},
		{"argument type", func(m *Module) { m.funcs[2].Body[1].(*Call).Args[0] = Int{Type: m.Int(8)} }, "argument 0: i8 constant where ptr is expected"},
		{"no ret", func(m *Module) { m.funcs[2].Body = m.funcs[2].Body[:1] }, "the block does not end with ret"},
		{"empty body", func(m *Module) { m.funcs[2].Body = []Instruction{} }, "an empty body"},
		{"ret in the middle", func(m *Module) { m.funcs[2].Body = []Instruction{Ret{}, Ret{}} }, "ret before the end of the block"},
		{"ret from non-void", func(m *Module) {
			m.AddFunction(&Function{Name: "f", Type: m.Func(m.Int(8)), Body: []Instruction{Ret{}}})
		}, "ret without a value in a function returning i8"},
		{"foreign callee", func(m *Module) {
			m.funcs[2].Body[0] = &Call{Callee: &Function{Name: "nowhere", Type: m.Func(m.Void())}}
		}, "callee @nowhere is not a function of this module"},
		{"function type", func(m *Module) { m.AddFunction(&Function{Name: "f", Type: m.Int(8)}) }, "its type is not a function type"},
		{"internal function declaration", func(m *Module) {
			m.AddFunction(&Function{Name: "f", Type: m.Func(m.Void()), Linkage: InternalLinkage})
		}, "a declaration must have external linkage"},
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, []byte("0123456789abcdef!"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		m := testModule(data, 17)
		c.edit(m)
		var buf bytes.Buffer
		n, err := m.WriteTo(&buf)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if n != 0 || buf.Len() != 0 {
			t.Errorf("%s: %d bytes written", c.name, buf.Len())
		}
	}
}
