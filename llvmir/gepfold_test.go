package llvmir

import "testing"

func TestFoldZeroGEPs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// The expression of auto-module-split-2.ll, as LLVM 19 prints it.
		{"  %0 = load i32, ptr addrspace(4) getelementptr inbounds ([1 x i32], ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL2GV to ptr addrspace(4)), i64 0, i64 0), align 4\n",
			"  %0 = load i32, ptr addrspace(4) addrspacecast (ptr addrspace(1) @_ZL2GV to ptr addrspace(4)), align 4\n"},
		{"@t = global ptr getelementptr (i8, ptr @x, i64 0)\n", "@t = global ptr @x\n"},
		// Nested: both fold.
		{"  store ptr getelementptr inbounds nuw ([2 x ptr], ptr getelementptr ([1 x [2 x ptr]], ptr @a, i32 0, i32 0), i64 0, i64 0), ptr %p\n",
			"  store ptr @a, ptr %p\n"},
		// Not folded: a non-zero index, a typed pointer, an instruction,
		// inrange, a comment, a string.
		{"  store ptr getelementptr ([2 x i32], ptr @a, i64 0, i64 1), ptr %p\n", ""},
		{"  store i8* getelementptr inbounds ([3 x i8], [3 x i8]* @s, i64 0, i64 0), i8** %p\n", ""},
		{"  %g = getelementptr inbounds [1 x i32], ptr @a, i64 0, i64 0\n", ""},
		{"  store ptr getelementptr inrange(0, 8) ({ [1 x ptr] }, ptr @v, i32 0, i32 0), ptr %p\n", ""},
		{"; CHECK: ptr getelementptr (i8, ptr @x, i64 0)\n", ""},
		{"@s = constant [30 x i8] c\"getelementptr (i8, ptr @x, i64 0)\"\n", ""},
		{"  store ptr getelementptr (i8, ptr @x, i64 %n), ptr %p ; getelementptr (i8, ptr @y, i64 0)\n", ""},
	} {
		want := c.want
		if want == "" {
			want = c.in
		}
		got, changed := FoldZeroGEPs([]byte(c.in))
		if string(got) != want || changed != (c.want != "") {
			t.Errorf("FoldZeroGEPs(%q) = %q, %v; want %q", c.in, got, changed, want)
		}
	}
}
