package split

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sycbuild/sycbuild/internal/testenv"
	"github.com/sycbuild/sycbuild/llvmir"
)

// want describes one output module.
type want struct {
	syms     []string // the symbol table, in order
	status   ESIMDStatus
	defines  []string // functions, variables and aliases defined
	declares []string // functions and variables only declared
	absent   []string // global values not written at all
	has      []string // text the module contains
	hasNot   []string // text it must not contain
}

type splitTest struct {
	name     string
	file     string
	cfg      Config
	separate bool   // -split-esimd
	llvmAs   string // the assembler that must accept every output
	mods     []want
	warnings []string
}

func perKernel() Config { return Config{Scope: ScopePerKernel} }
func perSource() Config { return Config{Scope: ScopePerModule} }

var splitTests = []splitTest{
	{
		name: "indirect calls reach referenced-indirectly functions of the same type", file: "indirect.ll", cfg: perKernel(),
		mods: []want{
			{syms: []string{"kB"}, defines: []string{"kB", "other"}, absent: []string{"kA", "cand1", "cand2", "cand3", "plain"},
				has: []string{"define internal spir_func i32 @other()"}},
			{syms: []string{"kA"}, defines: []string{"kA", "cand1", "cand2"}, absent: []string{"kB", "cand3", "plain", "other"},
				// referenced-indirectly functions keep their linkage
				has: []string{"define spir_func void @cand1(i32 %x)", "define spir_func void @cand2(i32 %x)"}},
		},
	},
	{
		name: "a declared kernel is no entry point", file: "kernel-decl.ll", cfg: perSource(),
		mods: []want{
			{syms: []string{"k1"}, defines: []string{"k1"}, absent: []string{"k0", "kdecl"},
				has: []string{"!spirv.ExecutionMode = !{!1}"}, hasNot: []string{"!0 = ", "!2 = "}},
			{syms: []string{"k0"}, defines: []string{"k0"}, absent: []string{"k1", "kdecl"},
				has: []string{"!spirv.ExecutionMode = !{!0}"}},
		},
	},
	{
		name: "SYCL_EXTERNAL functions are entry points", file: "sycl-external.ll", cfg: perSource(),
		mods: []want{
			{syms: []string{"ext"}, defines: []string{"ext"}, absent: []string{"k", "__builtin_thing", "_Z20__spirv_SomeBuiltin", "helper"},
				has: []string{"define spir_func void @ext() #1 {", `attributes #1 = { "sycl-entry-point" "sycl-module-id"="b.cpp" }`}},
			{syms: []string{"k"}, defines: []string{"k", "ext"}, absent: []string{"__builtin_thing", "_Z20__spirv_SomeBuiltin", "helper"},
				has: []string{"define internal spir_func void @ext() #1 {"}},
		},
	},
	{
		name: "only kernels are entry points with -emit-only-kernels-as-entry-points", file: "sycl-external.ll",
		cfg: Config{Scope: ScopePerModule, OnlyKernels: true},
		mods: []want{
			{syms: []string{"k"}, defines: []string{"k", "ext"}, absent: []string{"__builtin_thing", "helper"}},
		},
	},
	{
		name: "comdats", file: "comdat.ll", cfg: perKernel(),
		mods: []want{
			{syms: []string{"k2"}, defines: []string{"k2", "shared", "withvarfn", "withvar"}, absent: []string{"k1", "p1", "p2"},
				has: []string{"$shared = comdat any", "$withvar = comdat any",
					// a comdat with a variable keeps its members' linkage
					"define linkonce_odr spir_func i32 @withvarfn() comdat($withvar)",
					"define internal spir_func i32 @shared(i32 %x) comdat"},
				hasNot: []string{"$pair"}},
			{syms: []string{"k1"}, defines: []string{"k1", "shared", "p1", "p2"}, absent: []string{"k2", "withvarfn", "withvar"},
				has: []string{"$pair = comdat nodeduplicate", "define internal spir_func void @p2() comdat($pair)"}},
		},
	},
	{
		name: "aliases", file: "alias.ll", cfg: perKernel(),
		mods: []want{
			{syms: []string{"usesAlias"}, defines: []string{"usesAlias", "fn_alias", "impl", "table_alias", "table"}},
			{syms: []string{"noAlias"}, defines: []string{"noAlias"}, absent: []string{"fn_alias", "impl", "table_alias", "table"}},
		},
	},
	{
		name: "aliases in a module that is not split", file: "alias.ll", cfg: Config{Scope: ScopeGlobal, NoSplit: true},
		mods: []want{
			{syms: []string{"usesAlias", "noAlias"}, defines: []string{"usesAlias", "noAlias", "fn_alias", "impl", "table_alias", "table"}},
		},
	},
	{
		name: "unnamed globals are renumbered", file: "unnamed.ll", cfg: perKernel(),
		mods: []want{
			{syms: []string{"usesSecond"}, defines: []string{"usesSecond", "0", "1", "2"},
				has: []string{`@0 = private unnamed_addr addrspace(2) constant [4 x i8] c"xyz\00"`, "@1 = internal addrspace(1) global i32 0",
					"load i8, ptr addrspace(2) @0", "store i32 1, ptr addrspace(1) @1", "call spir_func void @2()", "define internal spir_func void @2()"}},
			{syms: []string{"usesFirst"}, defines: []string{"usesFirst", "0"},
				has: []string{`@0 = private unnamed_addr addrspace(2) constant [4 x i8] c"abc\00"`}, hasNot: []string{"xyz", "@1"}},
		},
	},
	{
		name: "debug info", file: "debuginfo.ll", cfg: perKernel(),
		mods: []want{
			{syms: []string{"k2"}, defines: []string{"k2", "helper2", "g2"}, absent: []string{"k1", "helper1", "g1"},
				has: []string{`name: "g2"`, `name: "k2"`, `name: "helper2"`}, hasNot: []string{`name: "g1"`, `name: "helper1"`, `name: "k1"`}},
			{syms: []string{"k1"}, defines: []string{"k1", "helper1", "g1"}, absent: []string{"k2", "helper2", "g2"},
				has: []string{`name: "g1"`}, hasNot: []string{`name: "g2"`, `name: "helper2"`}},
		},
	},
	{
		name: "globals named only by debug info and metadata values", file: "debuginfo-values.ll", cfg: perKernel(), llvmAs: "llvm-as-15",
		mods: []want{
			{syms: []string{"k2"}, defines: []string{"k2", "tget2", "g1"}, absent: []string{"k1", "tget1", "g2"},
				has: []string{
					`!22 = distinct !DITemplateValueParameter(name: "P", type: !4, value: null)`,
					`!31 = !{!"two", i32 addrspace(1)* @g1}`,
					`call void @llvm.dbg.value(metadata i32 addrspace(1)* @g1,`,
				}},
			{syms: []string{"k1"}, defines: []string{"k1", "tget1"}, absent: []string{"k2", "tget2", "g1", "g2"},
				has: []string{
					`!12 = distinct !DITemplateValueParameter(name: "P", type: !4, value: null)`,
					`!30 = distinct !{!"one", null, !{null, i32 7}}`,
					`metadata !DIArgList(i32 %x, i32 1)`,
				}},
		},
	},
	{
		name: "typed pointers (LLVM 15)", file: "typed.ll", cfg: perKernel(), llvmAs: "llvm-as-15",
		mods: []want{
			{syms: []string{"kB"}, defines: []string{"kB", "viaCast", "gv"}, absent: []string{"cand", "kA"}},
			{syms: []string{"kA"}, defines: []string{"kA", "cand"}, absent: []string{"viaCast", "gv", "kB"}},
		},
	},
	{
		name: "CUDA kernels from !nvvm.annotations and ptx_kernel", file: "cuda.ll", cfg: perKernel(),
		mods: []want{
			{syms: []string{"ptxk"}, defines: []string{"ptxk", "_Z6helperi"}, absent: []string{"_Z5kern1Pi", "_Z5kern2Pi", "_Z5otheri"},
				hasNot: []string{"!nvvm.annotations ="}},
			{syms: []string{"_Z5kern2Pi"}, defines: []string{"_Z5kern2Pi", "_Z5otheri"}, absent: []string{"_Z5kern1Pi", "_Z6helperi"},
				has: []string{"!nvvm.annotations = !{!1}"}},
			{syms: []string{"_Z5kern1Pi"}, defines: []string{"_Z5kern1Pi", "_Z6helperi"}, absent: []string{"_Z5kern2Pi"},
				has: []string{"!nvvm.annotations = !{!0, !10}"}},
		},
	},
	{
		name: "ESIMD split with -split-esimd", file: "esimd.ll", cfg: perSource(), separate: true,
		mods: []want{
			{syms: []string{"esimdK"}, status: ESIMDOnly, defines: []string{"esimdK", "esimdHelper", "shared"}, absent: []string{"syclK"}},
			{syms: []string{"syclK"}, status: SYCLOnly, defines: []string{"syclK", "shared"}, absent: []string{"esimdK", "esimdHelper"}},
		},
	},
	{
		name: "ESIMD and SYCL joined without -split-esimd", file: "esimd.ll", cfg: perSource(),
		mods: []want{
			{syms: []string{"esimdK", "syclK"}, status: SYCLAndESIMD, defines: []string{"esimdK", "esimdHelper", "shared", "syclK"}},
		},
	},
	{
		name: "virtual functions", file: "virtual.ll", cfg: perKernel(),
		mods: []want{
			// A module of a virtual function keeps its body, made external.
			{syms: []string{"vfoo"}, defines: []string{"vfoo"}, absent: []string{"vtable", "vbar", "construct"},
				has: []string{"define spir_func void @vfoo()"}},
			{syms: []string{"vbar"}, defines: []string{"vbar"}, absent: []string{"vtable", "vfoo", "construct"}},
			// Others only declare virtual functions (and warn about them).
			{syms: []string{"construct"}, defines: []string{"construct", "vtable"}, declares: []string{"vfoo", "vbar"}},
		},
		warnings: []string{
			"Undefined function vfoo found in testdata/virtual.ll. This may result in runtime errors.",
			"Undefined function vbar found in testdata/virtual.ll. This may result in runtime errors.",
		},
	},
	{
		name: "cleanup", file: "cleanup.ll", cfg: perSource(),
		mods: []want{
			{syms: []string{"k2"}, defines: []string{"k2", "llvm.compiler.used", "keepme"}, absent: []string{"k1", "llvm.used", "dg", "callsMissing", "missing"},
				has: []string{`!2 = !{!"second", !"k2"}`, "!sycl_registered_kernels = !{!"}, hasNot: []string{`!"first"`}},
			{syms: []string{"k1"}, defines: []string{"k1", "callsMissing", "keepme"}, declares: []string{"missing", "llvm.donothing", "__builtin_hidden"},
				absent: []string{"k2", "llvm.used", "dg"}, has: []string{`!"first", !"k1"`}, hasNot: []string{`!"second"`}},
		},
		warnings: []string{"Undefined function missing found in testdata/cleanup.ll. This may result in runtime errors."},
	},
	{
		name: "imports with -allow-device-image-dependencies", file: "deps.ll", cfg: Config{Scope: ScopePerModule, AllowDeps: true},
		mods: []want{
			// _Z8__hiddenv (__hidden()) cannot be imported: it is internalized.
			{syms: []string{"_Z3extv", "_Z8__hiddenv"}, defines: []string{"_Z3extv", "_Z8__hiddenv"}, hasNot: []string{"sycl-entry-point"},
				has: []string{"define spir_func void @_Z3extv()", "define internal spir_func void @_Z8__hiddenv()"}},
			{syms: []string{"k"}, defines: []string{"k", "local", "_Z8__hiddenv"}, declares: []string{"_Z3extv"},
				has: []string{"define internal spir_func void @_Z8__hiddenv()", "declare spir_func void @_Z3extv()"}},
		},
	},
}

// cleanupConfig drops llvm.used and the device global of llvm.compiler.used
// the way postlink's pre-split step does.
func cleanupConfig(t *testing.T, m *llvmir.Module, cfg *Config) {
	if m.Global("llvm.used") == nil {
		return
	}
	cu := m.Global("llvm.compiler.used")
	cfg.Removed = map[*llvmir.Entity]bool{m.Global("llvm.used"): true, m.Global("dg"): true}
	cfg.Rewritten = map[*llvmir.Entity]Rewrite{cu: {
		Text:    "@llvm.compiler.used = appending global [1 x ptr addrspace(4)] [ptr addrspace(4) addrspacecast (ptr @keepme to ptr addrspace(4))], section \"llvm.metadata\"\n",
		Globals: []*llvmir.Entity{m.Global("keepme")},
	}}
}

func TestSplit(t *testing.T) {
	for _, tc := range splitTests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := llvmir.Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			cfg := tc.cfg
			cfg.ModuleName = path
			cleanupConfig(t, m, &cfg)
			s := New(m, cfg)
			var got []*Part
			var warnings []string
			for i := range s.Groups() {
				p := s.Part(i)
				warnings = append(warnings, p.Warnings...)
				parts, _ := s.SplitESIMD(p, tc.separate)
				for _, q := range parts {
					warnings = append(warnings, q.Warnings...)
				}
				got = append(got, parts...)
			}
			if len(got) != len(tc.mods) {
				t.Fatalf("got %d modules, want %d", len(got), len(tc.mods))
			}
			if !slices.Equal(warnings, tc.warnings) {
				t.Errorf("warnings:\n got %q\nwant %q", warnings, tc.warnings)
			}
			for i, p := range got {
				checkModule(t, i, p, tc.mods[i], tc.llvmAs)
			}
		})
	}
}

// global finds @name, or @N for a number.
func global(m *llvmir.Module, name string) *llvmir.Entity {
	if n, err := strconv.Atoi(name); err == nil {
		return m.UnnamedGlobal(n)
	}
	return m.Global(name)
}

func checkModule(t *testing.T, i int, p *Part, w want, llvmAs string) {
	t.Helper()
	var syms []string
	for _, e := range p.Entries {
		syms = append(syms, e.Name)
	}
	if !slices.Equal(syms, w.syms) {
		t.Errorf("module %d: symbols %q, want %q", i, syms, w.syms)
	}
	if syms, err := p.SymbolTable(); err != nil || syms != strings.Join(w.syms, "\n")+"\n" {
		t.Errorf("module %d: symbol table %q, %v", i, syms, err)
	}
	if p.Status != w.status {
		t.Errorf("module %d: status %d, want %d", i, p.Status, w.status)
	}
	plan := p.Plan()
	AddStatus(plan, p.Status, false)
	var buf bytes.Buffer
	if err := plan.Write(&buf); err != nil {
		t.Fatalf("module %d: %v", i, err)
	}
	text := buf.String()
	out, err := llvmir.Parse("out", buf.Bytes())
	if err != nil {
		t.Fatalf("module %d does not parse: %v\n%s", i, err, text)
	}
	for _, n := range w.defines {
		if g := global(out, n); g == nil || isDecl(g) {
			t.Errorf("module %d: @%s is not defined\n%s", i, n, text)
		}
	}
	for _, n := range w.declares {
		if g := global(out, n); g == nil || !isDecl(g) {
			t.Errorf("module %d: @%s is not declared\n%s", i, n, text)
		}
	}
	for _, n := range w.absent {
		if global(out, n) != nil {
			t.Errorf("module %d: @%s is written\n%s", i, n, text)
		}
	}
	for _, h := range w.has {
		if !strings.Contains(text, h) {
			t.Errorf("module %d: no %q in\n%s", i, h, text)
		}
	}
	for _, h := range w.hasNot {
		if strings.Contains(text, h) {
			t.Errorf("module %d: %q in\n%s", i, h, text)
		}
	}
	if !strings.Contains(text, "!sycl-esimd-split-status = !{!") {
		t.Errorf("module %d: no status metadata", i)
	}
	assemble(t, llvmAs, text)
}

// assemble runs the real LLVM assembler on text; it must accept it.
func assemble(t *testing.T, tool, text string) {
	t.Helper()
	if tool == "" {
		tool = "llvm-as-19"
	}
	cmd := exec.Command(testenv.Tool(t, tool), "-o", os.DevNull, "-")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s rejects the module: %v\n%s\n%s", tool, err, out, text)
	}
}
