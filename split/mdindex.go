package split

import (
	"github.com/sycbuild/sycbuild/llvmir"
)

// mdIndex is what cleanup needs to know about an input module's comdats
// and metadata, computed once.
type mdIndex struct {
	// comdat numbers the comdats functions and variables are in: by
	// entity index, the comdat's number (1 and up), or 0 for none.
	comdat []int32
	// comdatNames and comdatMembers are, by comdat number, each comdat's
	// name and the definitions in it (entry 0 is unused).
	comdatNames   []string
	comdatMembers [][]int32
	// kernelLists are the named metadata whose operands each describe one
	// function (!nvvm.annotations, !spirv.ExecutionMode): an operand is
	// dropped with its function.
	kernelLists []*llvmir.Entity
	// inKernelList marks the nodes that are operands of kernelLists.
	inKernelList map[*llvmir.Entity]bool
	// withGlobals are the other metadata nodes that reference global
	// values: a reference to a global the part does not write becomes
	// null, as when LLVM deletes a value that metadata refers to.
	withGlobals []*llvmir.Entity
	// registered is !sycl_registered_kernels.
	registered *llvmir.Entity
	// cus are the DICompileUnit nodes with a globals: list.
	cus []*llvmir.Entity
}

func newMDIndex(m *llvmir.Module) *mdIndex {
	x := &mdIndex{comdat: make([]int32, len(m.Entities)), comdatNames: []string{""}, comdatMembers: [][]int32{nil},
		inKernelList: map[*llvmir.Entity]bool{}}
	number := map[string]int32{}
	for _, name := range []string{"nvvm.annotations", "spirv.ExecutionMode"} {
		nm := m.NamedMD(name)
		if nm == nil || nm.Named == nil {
			continue
		}
		x.kernelLists = append(x.kernelLists, nm)
		for i := range nm.Named.Ops {
			if r := nm.Named.Ops[i].Ref; r != nil {
				x.inKernelList[r] = true
			}
		}
	}
	x.registered = m.NamedMD("sycl_registered_kernels")
	for _, e := range m.Entities {
		switch e.Kind {
		case llvmir.KindFunction, llvmir.KindGlobalVar:
			c := comdatOf(e)
			if c == "" {
				break
			}
			n, ok := number[c]
			if !ok {
				n = int32(len(x.comdatNames))
				number[c] = n
				x.comdatNames = append(x.comdatNames, c)
				x.comdatMembers = append(x.comdatMembers, nil)
			}
			x.comdat[e.Index] = n
			if !isDecl(e) {
				x.comdatMembers[n] = append(x.comdatMembers[n], int32(e.Index))
			}
		case llvmir.KindMDNode:
			if len(e.Globals) > 0 && !x.inKernelList[e] {
				x.withGlobals = append(x.withGlobals, e)
			}
			if e.Node != nil && e.Node.Special == "DICompileUnit" && cuGlobals(e.Node) != nil {
				x.cus = append(x.cus, e)
			}
		}
	}
	return x
}
