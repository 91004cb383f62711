package llvmir

import (
	"regexp"
	"slices"
	"testing"
)

const groupsSrc = `source_filename = "g.cpp"
target triple = "spir64-unknown-unknown"

@v = addrspace(1) global i32 1, align 4 #5
@w = addrspace(1) global i32 2, align 4 #6

declare spir_func i32 @callee(i32) #0

define spir_func i32 @f(i32 %x) #1 {
  %r = call spir_func i32 @callee(i32 %x) #2
  %s = call i32 asm sideeffect "; #9 in a string", "=r"() #3
  %t = load i32, ptr addrspace(1) @v, align 4
  ret i32 %r
}

define spir_func i32 @g(i32 %x) #4 {
  %r = call spir_func i32 @callee(i32 %x) #2
  ret i32 %r
}

attributes #0 = { nounwind }
attributes #1 = { convergent "sycl-module-id"="g.cpp" }
attributes #2 = { nounwind readnone }
attributes #3 = { nounwind memory(none) }
attributes #4 = { noinline }
attributes #5 = { "sycl-unique-id"="v" }
attributes #6 = { "sycl-unique-id"="w" }
attributes #7 = { cold }
`

// groupsWritten returns the ids of the attribute groups a module's text
// defines.
func groupsWritten(text []byte) []string {
	var ids []string
	for _, m := range regexp.MustCompile(`(?m)^attributes #(\d+) =`).FindAllSubmatch(text, -1) {
		ids = append(ids, string(m[1]))
	}
	return ids
}

// TestPlanWritesReferencedGroups checks that an output keeps exactly the
// attribute groups its written entities reference (function headers, call
// sites, global variables, added entities), as LLVM does, for sparse and
// full plans alike, and that LLVM accepts it.
func TestPlanWritesReferencedGroups(t *testing.T) {
	m, err := Parse("g.ll", []byte(groupsSrc))
	if err != nil {
		t.Fatal(err)
	}
	f, g, callee := m.Global("f"), m.Global("g"), m.Global("callee")
	v, w := m.Global("v"), m.Global("w")
	for _, c := range []struct {
		name string
		plan func() *Plan
		want []string
	}{
		{"sparse f", func() *Plan { return m.NewSparsePlan([]*Entity{f, callee, v}) }, []string{"0", "1", "2", "3", "5"}},
		{"sparse g", func() *Plan { return m.NewSparsePlan([]*Entity{g, callee}) }, []string{"0", "2", "4"}},
		{"sparse g declared", func() *Plan {
			p := m.NewSparsePlan([]*Entity{g, callee})
			p.MakeDeclaration(g)
			return p
		}, []string{"0", "4"}},
		{"sparse w and an added declaration", func() *Plan {
			p := m.NewSparsePlan([]*Entity{w})
			p.Add(KindFunction, "declare void @extra() #7")
			return p
		}, []string{"6", "7"}},
		{"full", func() *Plan { return m.NewPlan() }, []string{"0", "1", "2", "3", "4", "5", "6"}},
		{"full without g", func() *Plan {
			p := m.NewPlan()
			p.Drop(g)
			return p
		}, []string{"0", "1", "2", "3", "5", "6"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := writePlan(t, c.plan())
			if got := groupsWritten(text); !slices.Equal(got, c.want) {
				t.Errorf("groups written %v, want %v\n%s", got, c.want, text)
			}
			assemble(t, "llvm-as-19", "groups.ll", text)
		})
	}
}

// TestAppendStripsComments checks that Append with StripComments writes
// what Write writes, less the comment lines, whether an entity's text is
// copied as it is or edited.
func TestAppendStripsComments(t *testing.T) {
	m := parsePlanSrc(t)
	h := m.Global("_Z1hi")
	// @1 is left out: @2 is renumbered.
	plan := m.NewSparsePlan([]*Entity{m.Global("k1"), m.Global("k2"), h, m.Global("spec"), m.Global("str"),
		m.Global("g"), m.UnnamedGlobal(0), m.UnnamedGlobal(2)})
	plan.SetLinkage(h, Internal)
	var want []byte
	var f stripper
	want = f.filter(want, writePlan(t, plan))
	got, err := plan.Append([]byte("kept: "), WriteOptions{StripComments: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "kept: "+string(want) {
		t.Errorf("Append = %q\nwant %q", got, "kept: "+string(want))
	}
	if hasCommentLine(got) {
		t.Errorf("comment lines left in %q", got)
	}
}

func TestOtherReferrers(t *testing.T) {
	m := parsePlanSrc(t)
	var got []string
	for _, e := range m.OtherReferrers() {
		got = append(got, describeEntity(e))
	}
	// !sycl.kernels names no global itself; !1 and !2 do.
	if want := []string{"!1", "!2"}; !slices.Equal(got, want) {
		t.Errorf("OtherReferrers = %v, want %v", got, want)
	}
}
