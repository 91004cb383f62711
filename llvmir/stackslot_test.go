package llvmir

import (
	"reflect"
	"testing"
)

// TestStackSlots: an alloca, its casts, the stores into it (a constant
// expression with commas among them) and the loads from it, in both
// pointer forms; a slot stored twice says so.
func TestStackSlots(t *testing.T) {
	const fn = `define void @f(ptr %f) {
  %4 = alloca i8 addrspace(4)*, align 8
  %6 = addrspacecast i8 addrspace(4)** %4 to i8 addrspace(4)* addrspace(4)*
  store i8 addrspace(4)* addrspacecast (i8* getelementptr inbounds ([32 x i8], [32 x i8]* @s, i32 0, i32 0) to i8 addrspace(4)*), i8 addrspace(4)* addrspace(4)* %6, align 8, !tbaa !4
  %8 = load i8 addrspace(4)*, i8 addrspace(4)* addrspace(4)* %6, align 8, !tbaa !4
  %f.addr = alloca ptr, align 8
  store ptr %f,ptr %f.addr, align 8
  %1 = load ptr,ptr %f.addr, align 8
  store ptr null, ptr %f.addr
  ret void
}
`
	got := StackSlots([]byte(fn))
	want := []StackSlot{
		{Names: []string{"%4", "%6"}, Stored: []string{"i8 addrspace(4)* addrspacecast (i8* getelementptr inbounds ([32 x i8], [32 x i8]* @s, i32 0, i32 0) to i8 addrspace(4)*)"}, Loaded: []string{"%8"}},
		{Names: []string{"%f.addr"}, Stored: []string{"ptr %f", "ptr null"}, Loaded: []string{"%1"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if _, ok := got[1].StoredOnce(); ok {
		t.Error("a slot stored twice is stored once")
	}
	if StackSlots([]byte("define void @g() {\n  ret void\n}\n")) != nil {
		t.Error("slots in a body without allocas")
	}
}
