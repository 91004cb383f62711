package llvmir

// Attr is one attribute: an enum attribute ("noundef"), an integer or type
// attribute ("align 4", "dereferenceable(8)", "sret(%struct.A)",
// "memory(argmem: read)") or a string attribute ("sycl-module-id"="a.cpp").
type Attr struct {
	// Key is the attribute's name; for a string attribute, its key
	// unescaped.
	Key string
	// Value is what follows the key: the integer or the text inside the
	// parentheses for built-in attributes ("4", "argmem: read",
	// "%struct.A"), the unescaped value for a string attribute; "" when
	// there is none.
	Value string
	// HasValue distinguishes "k"="" from "k".
	HasValue bool
	// String marks a quoted string attribute.
	String bool
	// Type is the parsed type of a type attribute (sret, byval, byref,
	// inalloca, preallocated, elementtype).
	Type *Type
}

// Text returns the attribute as LLVM writes it.
func (a Attr) Text() string {
	if a.String {
		s := quoteString(a.Key)
		if a.HasValue {
			s += "=" + quoteString(a.Value)
		}
		return s
	}
	if !a.HasValue {
		return a.Key
	}
	switch a.Key {
	case "align", "alignstack":
		if a.Type == nil && isDigits(a.Value) {
			return a.Key + " " + a.Value
		}
	}
	return a.Key + "(" + a.Value + ")"
}

// Attrs is an attribute list in source order.
type Attrs []Attr

// Get returns the value of the first attribute with the key and whether it
// is present.
func (as Attrs) Get(key string) (string, bool) {
	for i := range as {
		if as[i].Key == key {
			return as[i].Value, true
		}
	}
	return "", false
}

// Has reports whether an attribute with the key is present.
func (as Attrs) Has(key string) bool {
	_, ok := as.Get(key)
	return ok
}

// TypeOf returns the type of the first type attribute with the key, or nil.
func (as Attrs) TypeOf(key string) *Type {
	for i := range as {
		if as[i].Key == key {
			return as[i].Type
		}
	}
	return nil
}

// AttrGroup is "attributes #N = { … }".
type AttrGroup struct {
	Attrs Attrs
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
