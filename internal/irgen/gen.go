// Package irgen writes synthetic SYCL-shaped LLVM IR modules: N spir_kernel
// functions and M spir_func helpers with calls between them, global tables,
// unnamed string globals, a few specialization-constant calls, kernels spread
// over several source files ("sycl-module-id" attribute groups), OpenCL
// kernel-argument metadata and SYCL function metadata. The syntax is LLVM
// 15-compatible in both modes: typed pointers ("i32 addrspace(1)*", what
// llvm-as-15 and llvm-spirv-15 read) or opaque pointers ("ptr
// addrspace(1)", also read by LLVM 19).
//
// Output is deterministic for a given Config.
package irgen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"strings"
)

// Config sizes a module.
type Config struct {
	Kernels        int   // spir_kernel functions
	Helpers        int   // spir_func helpers (linkonce_odr, in comdats)
	Body           int   // arithmetic instructions per function
	CallsPerKernel int   // helper calls per kernel
	Sources        int   // distinct "sycl-module-id" values (translation units)
	SpecConsts     int   // kernels that read a specialization constant
	Unnamed        int   // unnamed string globals @0, @1, …
	Typed          bool  // typed pointers (LLVM 15) instead of opaque ones
	Seed           int64 // random seed for the call graph
}

// Big is the benchmark module: 5000 kernels and 2000 helpers of 300
// instructions each, about 65 MB.
func Big() Config {
	return Config{Kernels: 5000, Helpers: 2000, Body: 300, CallsPerKernel: 2, Sources: 50,
		SpecConsts: 8, Unnamed: 16, Seed: 1}
}

// Small is a module for tests: every construct, a few kilobytes.
func Small() Config {
	return Config{Kernels: 6, Helpers: 4, Body: 3, CallsPerKernel: 2, Sources: 3,
		SpecConsts: 2, Unnamed: 3, Seed: 1}
}

// KernelName returns the name of kernel k.
func KernelName(k int) string { return fmt.Sprintf("_ZTSZ4mainE7kernel%d", k) }

// HelperName returns the name of helper h.
func HelperName(h int) string { return fmt.Sprintf("_Z6helperILi%dEEii", h) }

// SourceName returns the "sycl-module-id" of source s.
func SourceName(s int) string { return fmt.Sprintf("src%d.cpp", s) }

// KernelSource returns the source index of kernel k.
func (c Config) KernelSource(k int) int { return k % c.Sources }

// SpecConstName is the declaration the spec-constant calls call.
const SpecConstName = "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_"

func (c Config) validate() error {
	switch {
	case c.Kernels < 1, c.Helpers < 1, c.Sources < 1:
		return fmt.Errorf("gen: need at least one kernel, helper and source")
	case c.Body < 0, c.CallsPerKernel < 0, c.SpecConsts < 0, c.Unnamed < 0:
		return fmt.Errorf("gen: negative size")
	case c.SpecConsts > c.Kernels:
		return fmt.Errorf("gen: more spec-constant kernels than kernels")
	}
	return nil
}

// ptr spells a pointer to ty in address space as.
func (c Config) ptr(ty string, as int) string {
	if c.Typed {
		if as == 0 {
			return ty + "*"
		}
		return fmt.Sprintf("%s addrspace(%d)*", ty, as)
	}
	if as == 0 {
		return "ptr"
	}
	return fmt.Sprintf("ptr addrspace(%d)", as)
}

// Write writes the module.
func Write(w io.Writer, c Config) error {
	if err := c.validate(); err != nil {
		return err
	}
	g := &writer{c: c, w: bufio.NewWriterSize(w, 1<<20), rnd: rand.New(rand.NewSource(c.Seed))}
	g.module()
	return g.w.Flush()
}

type writer struct {
	c   Config
	w   *bufio.Writer
	rnd *rand.Rand
}

func (g *writer) p(format string, args ...any) { fmt.Fprintf(g.w, format, args...) }

func (g *writer) s(s string) { g.w.WriteString(s) }

// Metadata numbering.
const (
	mdFlags     = 0
	mdSpirVer   = 1
	mdArgAS     = 2
	mdArgAccess = 3
	mdArgType   = 4
	mdArgQual   = 5
	mdWGSize    = 6
	mdSubGroup  = 7
	mdAspects   = 8
	mdSrcloc    = 10 // + source
)

func (g *writer) module() {
	c := g.c
	g.s("; synthetic SYCL-shaped device module\n")
	g.s("source_filename = \"synthetic\"\n")
	g.s("target datalayout = \"e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64\"\n")
	g.s("target triple = \"spir64-unknown-unknown\"\n\n")
	g.s("%\"class.sycl::_V1::specialization_id\" = type { i32 }\n")
	g.s("%struct.Params = type { i32, float, [4 x i32], <3 x i32> }\n\n")
	for u := 0; u < c.Unnamed; u++ {
		s := unnamedText(u)
		g.p("@%d = private unnamed_addr addrspace(1) constant [%d x i8] c\"%s\\00\", align 1\n", u, len(s)+1, s)
	}
	g.p("@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32\n")
	g.s("@params = dso_local addrspace(1) global %struct.Params { i32 7, float 1.500000e+00, [4 x i32] [i32 1, i32 2, i32 3, i32 4], <3 x i32> <i32 5, i32 6, i32 7> }, align 16\n")
	for h := 0; h < c.Helpers; h++ {
		g.p("@tbl%d = internal addrspace(1) constant [4 x i32] [i32 %d, i32 1, i32 2, i32 3], align 4\n", h, h)
	}
	for i := 0; i < c.SpecConsts; i++ {
		id := fmt.Sprintf("uid%016x____ZL3sc%d", uint64(i)*0x9e3779b97f4a7c15, i)
		g.p("@__usid_str.%d = private unnamed_addr constant [%d x i8] c\"%s\\00\", align 1\n", i, len(id)+1, id)
		g.p("@_ZL3sc%d = internal addrspace(1) constant %%\"class.sycl::_V1::specialization_id\" { i32 %d }, align 4\n", i, 40+i)
	}
	g.s("\n")
	for h := 0; h < c.Helpers; h++ {
		g.p("$%s = comdat any\n", HelperName(h))
	}
	g.s("\n")
	if c.SpecConsts > 0 {
		p4 := c.ptr("i8", 4)
		g.p("declare spir_func i32 @%s(%s noundef, %s noundef, %s noundef) #0\n\n", SpecConstName, p4, p4, p4)
	}
	for h := 0; h < c.Helpers; h++ {
		g.helper(h)
	}
	for k := 0; k < c.Kernels; k++ {
		g.kernel(k)
	}
	g.s("attributes #0 = { convergent nounwind }\n")
	g.s("attributes #1 = { convergent mustprogress noinline norecurse nounwind \"frame-pointer\"=\"all\" }\n")
	for s := 0; s < c.Sources; s++ {
		g.p("attributes #%d = { convergent mustprogress noinline norecurse nounwind \"frame-pointer\"=\"all\" \"sycl-module-id\"=\"%s\" \"sycl-optlevel\"=\"2\" \"uniform-work-group-size\"=\"true\" }\n", 2+s, SourceName(s))
	}
	g.s("\n!llvm.module.flags = !{!0}\n!opencl.spir.version = !{!1}\n!spirv.Source = !{!9}\n\n")
	g.p("!%d = !{i32 1, !\"wchar_size\", i32 4}\n", mdFlags)
	g.p("!%d = !{i32 1, i32 2}\n", mdSpirVer)
	g.p("!%d = !{i32 1, i32 1, i32 0}\n", mdArgAS)
	g.p("!%d = !{!\"none\", !\"none\", !\"none\"}\n", mdArgAccess)
	g.p("!%d = !{!\"int*\", !\"int*\", !\"size_t\"}\n", mdArgType)
	g.p("!%d = !{!\"\", !\"\", !\"\"}\n", mdArgQual)
	g.p("!%d = !{i32 64, i32 1, i32 1}\n", mdWGSize)
	g.p("!%d = !{i32 16}\n", mdSubGroup)
	g.p("!%d = !{i32 1, i32 5}\n", mdAspects)
	g.s("!9 = !{i32 4, i32 100000}\n")
	for s := 0; s < c.Sources; s++ {
		g.p("!%d = !{i32 %d}\n", mdSrcloc+s, 1000+s)
	}
}

func unnamedText(u int) string { return fmt.Sprintf("message %d", u) }

// arith writes n dependent arithmetic instructions starting from value in;
// it returns the last value.
func (g *writer) arith(prefix, in string, n, salt int) string {
	ops := [...]string{"add nsw", "mul nsw", "xor", "sub nsw", "and", "or", "shl"}
	v := in
	for i := 0; i < n; i++ {
		op := ops[(i+salt)%len(ops)]
		k := (i*7+salt)%97 + 1
		if op == "shl" {
			k %= 5
		}
		g.p("  %%%s%d = %s i32 %s, %d\n", prefix, i, op, v, k)
		v = fmt.Sprintf("%%%s%d", prefix, i)
	}
	return v
}

func (g *writer) helper(h int) {
	c := g.c
	name := HelperName(h)
	g.p("; Function Attrs: convergent mustprogress noinline norecurse nounwind\n")
	g.p("define linkonce_odr dso_local spir_func i32 @%s(i32 noundef %%x) #1 comdat {\nentry:\n", name)
	tbl := c.ptr("[4 x i32]", 1)
	g.p("  %%p = getelementptr inbounds [4 x i32], %s @tbl%d, i64 0, i64 1\n", tbl, h)
	g.p("  %%t = load i32, %s %%p, align 4\n", c.ptr("i32", 1))
	g.s("  %a = add nsw i32 %x, %t\n")
	v := g.arith("h", "%a", c.Body, h)
	if h%10 != 0 {
		g.p("  %%c = call spir_func i32 @%s(i32 noundef %s)\n  ret i32 %%c\n}\n\n", HelperName(h-1), v)
		return
	}
	g.p("  ret i32 %s\n}\n\n", v)
}

func (g *writer) kernel(k int) {
	c := g.c
	src := c.KernelSource(k)
	p1 := c.ptr("i32", 1)
	md := fmt.Sprintf("!kernel_arg_addr_space !%d !kernel_arg_access_qual !%d !kernel_arg_type !%d !kernel_arg_base_type !%d !kernel_arg_type_qual !%d !srcloc !%d",
		mdArgAS, mdArgAccess, mdArgType, mdArgType, mdArgQual, mdSrcloc+src)
	switch k % 4 {
	case 1:
		md += fmt.Sprintf(" !reqd_work_group_size !%d", mdWGSize)
	case 2:
		md += fmt.Sprintf(" !intel_reqd_sub_group_size !%d !sycl_used_aspects !%d", mdSubGroup, mdAspects)
	}
	g.p("; Function Attrs: convergent mustprogress noinline norecurse nounwind\n")
	g.p("define weak_odr dso_local spir_kernel void @%s(%s noundef align 4 %%out, %s noundef align 4 %%in, i64 noundef %%n) #%d %s {\nentry:\n",
		KernelName(k), p1, p1, 2+src, md)
	g.p("  %%gid = load <3 x i64>, %s @__spirv_BuiltInGlobalInvocationId, align 32\n", c.ptr("<3 x i64>", 1))
	g.s("  %i = extractelement <3 x i64> %gid, i64 0\n  %cmp = icmp ult i64 %i, %n\n  br i1 %cmp, label %body, label %exit\n\nbody:\n")
	g.p("  %%pin = getelementptr inbounds i32, %s %%in, i64 %%i\n  %%v = load i32, %s %%pin, align 4\n", p1, p1)
	v := "%v"
	if c.Unnamed > 0 && k%3 == 0 {
		u := (k / 3) % c.Unnamed
		addr := fmt.Sprintf("@%d", u)
		if c.Typed {
			n := len(unnamedText(u)) + 1
			addr = fmt.Sprintf("getelementptr inbounds ([%d x i8], [%d x i8] addrspace(1)* @%d, i64 0, i64 0)", n, n, u)
		}
		g.p("  %%m = load i8, %s %s, align 1\n  %%mz = zext i8 %%m to i32\n  %%vm = add i32 %%v, %%mz\n",
			c.ptr("i8", 1), addr)
		v = "%vm"
	}
	if k < c.SpecConsts {
		p4 := c.ptr("i8", 4)
		usid := fmt.Sprintf("@__usid_str.%d", k)
		sc := fmt.Sprintf("@_ZL3sc%d", k)
		var a0, a1 string
		if c.Typed {
			n := len(fmt.Sprintf("uid%016x____ZL3sc%d", uint64(k)*0x9e3779b97f4a7c15, k)) + 1
			a0 = fmt.Sprintf("addrspacecast (i8* getelementptr inbounds ([%d x i8], [%d x i8]* %s, i64 0, i64 0) to i8 addrspace(4)*)", n, n, usid)
			a1 = fmt.Sprintf("addrspacecast (i8 addrspace(1)* bitcast (%%\"class.sycl::_V1::specialization_id\" addrspace(1)* %s to i8 addrspace(1)*) to i8 addrspace(4)*)", sc)
		} else {
			a0 = fmt.Sprintf("addrspacecast (ptr %s to ptr addrspace(4))", usid)
			a1 = fmt.Sprintf("addrspacecast (ptr addrspace(1) %s to ptr addrspace(4))", sc)
		}
		g.p("  %%sc = call spir_func i32 @%s(%s noundef %s, %s noundef %s, %s noundef null) #0\n", SpecConstName, p4, a0, p4, a1, p4)
		g.p("  %%vs = add i32 %s, %%sc\n", v)
		v = "%vs"
	}
	v = g.arith("k", v, c.Body, k)
	for j := 0; j < c.CallsPerKernel; j++ {
		h := g.rnd.Intn(c.Helpers)
		g.p("  %%r%d = call spir_func i32 @%s(i32 noundef %s) #0\n", j, HelperName(h), v)
		v = fmt.Sprintf("%%r%d", j)
	}
	g.p("  %%pout = getelementptr inbounds i32, %s %%out, i64 %%i\n  store i32 %s, %s %%pout, align 4\n", p1, v, p1)
	g.s("  br label %exit\n\nexit:\n  ret void\n}\n\n")
}

// String returns the module as a string (for small configurations).
func String(c Config) (string, error) {
	var b strings.Builder
	err := Write(&b, c)
	return b.String(), err
}
