package llvmir

import (
	"sync"
	"testing"
)

// Readers of one parsed module may run in parallel (sycl-post-link lowers
// and writes split modules concurrently): the values built on demand must
// not race. Run under -race.
func TestConcurrentReaders(t *testing.T) {
	m, err := Parse("c.ll", []byte("define void @f(i32 %a) {\n  ret void\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Global("f").Func
	var wg sync.WaitGroup
	types := make([]*Type, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			types[i] = f.Type()
			if l, c := m.Position(5); l != 1 || c != 6 {
				t.Errorf("Position(5) = %d:%d", l, c)
			}
		}()
	}
	wg.Wait()
	for _, ty := range types {
		if ty != types[0] {
			t.Fatal("Type() built more than once")
		}
	}
}
