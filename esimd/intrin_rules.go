package esimd

// ruleKind is how one argument of a GenX intrinsic call is made from the
// __esimd_* call it replaces (the reference's GenXArgRuleKind).
type ruleKind uint8

const (
	ruleArg   ruleKind = iota // call argument n, as is (a, aSI)
	ruleArgI1                 // call argument n compared "ne 0": a vector of i1 (ai1)
	ruleRest                  // every call argument from the last one used on (l)
	ruleTmpl                  // integer template argument n (t, t1, t8, …)
	ruleUndef                 // undef of the type of call argument n, -1: of the result (u)
	ruleConst                 // an integer constant n of width bits (c8, c16, …)
)

// argRule makes one GenX argument. For ruleTmpl, bits is the width the
// template argument is converted to (0: the literal's own type).
type argRule struct {
	kind ruleKind
	n    int
	bits uint32
}

func a(n int) argRule   { return argRule{kind: ruleArg, n: n} }
func aSI(n int) argRule { return argRule{kind: ruleArg, n: n} } // a surface index: passed as is
func ai1(n int) argRule { return argRule{kind: ruleArgI1, n: n} }
func l(n int) argRule   { return argRule{kind: ruleRest, n: n} }
func u(n int) argRule   { return argRule{kind: ruleUndef, n: n} }
func t(n int) argRule   { return argRule{kind: ruleTmpl, n: n} }
func t1(n int) argRule  { return argRule{kind: ruleTmpl, n: n, bits: 1} }
func t8(n int) argRule  { return argRule{kind: ruleTmpl, n: n, bits: 8} }
func t16(n int) argRule { return argRule{kind: ruleTmpl, n: n, bits: 16} }
func t32(n int) argRule { return argRule{kind: ruleTmpl, n: n, bits: 32} }
func c8(n int) argRule  { return argRule{kind: ruleConst, n: n, bits: 8} }
func c16(n int) argRule { return argRule{kind: ruleConst, n: n, bits: 16} }
func c32(n int) argRule { return argRule{kind: ruleConst, n: n, bits: 32} }
func c64(n int) argRule { return argRule{kind: ruleConst, n: n, bits: 64} }

// suffixKind is how the GenX name gets a suffix from the call (the
// reference's GenXSuffixRuleKind).
type suffixKind uint8

const (
	noSuffix   suffixKind = iota
	binOpSufx             // ".add", ".inc", …: the atomic operation, template argument n
	numKindSfx            // "i" or "f": the element type of the result (n -1) or of argument n
)

type suffixRule struct {
	kind suffixKind
	n    int
}

func bo(n int) suffixRule { return suffixRule{kind: binOpSufx, n: n} }
func nk(n int) suffixRule { return suffixRule{kind: numKindSfx, n: n} }

// intrinDesc is one entry of the translation table: the GenX spelling
// (after "llvm.genx."), how its arguments are made, and its name suffix.
type intrinDesc struct {
	genx   string
	rules  []argRule
	suffix suffixRule
}

// atomicOps are the atomic operation suffixes by the operation's number
// (the reference's BIN_OP rule).
var atomicOps = map[int64]string{
	0x0: ".add", 0x1: ".sub", 0x2: ".inc", 0x3: ".dec", 0x4: ".min", 0x5: ".max",
	0x6: ".xchg", 0x7: ".cmpxchg", 0x8: ".and", 0x9: ".or", 0xa: ".xor",
	0xb: ".imin", 0xc: ".imax", 0x10: ".fmax", 0x11: ".fmin", 0x12: ".fcmpwr",
	0x13: ".fadd", 0x14: ".fsub", 0xff: ".predec",
}
