package llvmir

import (
	"strings"
	"testing"
)

func TestMDValueUses(t *testing.T) {
	const src = `@g = global i32 0
@"q r" = global [2 x i32] zeroinitializer

!0 = !{ptr @g, !"@g, not a use", i32 7}
!1 = distinct !{!0, !{i32 1, ptr @"q r"}, null}
!2 = !DITemplateValueParameter(name: "P,@g", type: !3, value: ptr addrspace(0) @g)
!3 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!4 = !{{ ptr, ptr } { ptr @g, ptr getelementptr ([2 x i32], ptr @"q r", i64 0, i64 1) }, <2 x i32> <i32 1, i32 2>}
!5 = !{!"no globals", !3}
!6 = !{!{!{ptr @g}}, ptr @g}
`
	assemble(t, "llvm-as-19", "u.ll", []byte(src))
	m, err := Parse("u.ll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   int
		want string // each use as text[globals](nested)
	}{
		{0, "ptr @g[g]"},
		{1, `ptr @"q r"[q r](nested)`},
		{2, "ptr addrspace(0) @g[g]"},
		{3, ""},
		{4, `{ ptr, ptr } { ptr @g, ptr getelementptr ([2 x i32], ptr @"q r", i64 0, i64 1) }[g q r]`},
		{5, ""},
		{6, "ptr @g[g](nested) ptr @g[g]"},
	} {
		var got []string
		for _, u := range m.MDValueUses(m.MD(tc.id)) {
			s := string(m.Src[u.Start:u.End]) + "[" + names(u.Globals) + "]"
			if u.Nested {
				s += "(nested)"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("!%d: uses %q, want %q", tc.id, g, tc.want)
		}
	}
}
