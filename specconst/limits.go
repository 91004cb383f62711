package specconst

import (
	"strconv"

	"github.com/sycbuild/sycbuild/llvmir"
)

// MaxElements bounds the scalar elements of one spec constant's type (an
// empty aggregate counts as one). The lowering costs what the flattened
// constant holds: one SPIR-V call, descriptor or default-value element per
// scalar, and the runtime allocates the value; real constants hold a
// handful. A type whose nesting repeats a struct (%t2 = type { %t1, %t1 },
// …) reaches far more elements than its text suggests, so the count is
// taken once per type before anything is emitted.
const MaxElements = 1 << 20

// elementCounter counts the scalar elements of types, once per aggregate
// type, so that counting costs the number of distinct types, not of paths
// through them.
type elementCounter map[*llvmir.Type]uint64

// count returns the number of scalar elements of t, or an error when there
// are more than MaxElements or t is nested deeper than llvmir.MaxNesting.
func (ec elementCounter) count(t *llvmir.Type, depth int) (uint64, error) {
	if !isAggregate(t) {
		return 1, nil
	}
	if n, ok := ec[t]; ok {
		return n, nil
	}
	if depth >= llvmir.MaxNesting {
		return 0, errNesting
	}
	var n uint64
	if t.Kind == llvmir.StructType {
		for _, f := range t.Fields {
			fn, err := ec.count(f, depth+1)
			if err != nil {
				return 0, err
			}
			if n += fn; n > MaxElements {
				return 0, errTooMany
			}
		}
	} else {
		en, err := ec.count(t.Elem, depth+1)
		if err != nil {
			return 0, err
		}
		if t.Len > MaxElements || en*t.Len > MaxElements {
			return 0, errTooMany
		}
		n = en * t.Len
	}
	n = max(n, 1)
	ec[t] = n
	return n, nil
}

type limitError string

func (e limitError) Error() string { return string(e) }

var (
	errNesting = limitError("is nested deeper than " + strconv.Itoa(llvmir.MaxNesting) + " levels")
	errTooMany = limitError("has more than " + strconv.Itoa(MaxElements) + " scalar elements")
)

// checkSize refuses, at the call at offset at, a spec constant whose type
// or default value's type is too large or too deep to lower.
func (l *lowering) checkSize(symID string, at int, types ...*llvmir.Type) error {
	if l.elements == nil {
		l.elements = elementCounter{}
	}
	for _, t := range types {
		if _, err := l.elements.count(t, 0); err != nil {
			return l.errAt(at, "spec constant %s of type %s %v", strconv.Quote(symID), t, err)
		}
	}
	return nil
}
