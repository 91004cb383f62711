package esimd

// genxSig is what the lowering needs of a GenX intrinsic's definition
// (vc-intrinsics' Intrinsic_definitions.py): its result and which of its
// arguments are overloaded, since LLVM names an overloaded intrinsic by
// the types of exactly those ("llvm.genx.svm.gather.v8i32.v8i1.v8i64").
type genxSig struct {
	// ret is "*" for an overloaded result (the call's type), "void", a
	// fixed type ("i1", "i32"), or "{*,*}" for a pair of the type of the
	// first argument (add with carry, subtract with borrow).
	ret string
	// args has one byte per argument: 'o' overloaded, '-' not.
	args string
}

// genxSigs are the GenX intrinsics the table lowers to, by spelling after
// "llvm.genx.".
var genxSigs = map[string]genxSig{
	"rdregioni": {"*", "o---o-"}, "rdregionf": {"*", "o---o-"},
	"wrregioni": {"*", "-o---o-o"}, "wrregionf": {"*", "-o---o-o"},
	"vload": {"*", "o"}, "vstore": {"void", "oo"},

	"svm.gather": {"*", "o-o-"}, "svm.gather4.scaled": {"*", "o---o-"},
	"svm.scatter": {"void", "o-oo"}, "svm.scatter4.scaled": {"void", "o---oo"},

	"dp4": {"*", "--"}, "fence": {"void", "-"}, "barrier": {"void", ""}, "sbarrier": {"void", "-"},

	"media.ld": {"*", "------"}, "media.st": {"void", "------o"},
	"oword.ld": {"*", "---"}, "oword.ld.unaligned": {"*", "---"}, "oword.st": {"void", "--o"},
	"gather.masked.scaled2": {"*", "----oo"}, "gather4.masked.scaled2": {"*", "----oo"},
	"scatter.scaled": {"void", "o----oo"}, "gather4.scaled": {"*", "o----o-"},
	"scatter4.scaled": {"void", "o----oo"},

	"raw.sends2": {"*", "--o------oo-"}, "raw.send2": {"*", "--o-----o-"},
	"raw.sends2.noresult": {"void", "--o-----oo"}, "raw.send2.noresult": {"void", "--o----o"},
	"dummy.mov": {"void", "-"}, "raw.send.noresult": {"void", "-o--o"}, "nbarrier": {"void", "---"},

	"dpas2": {"*", "ooo------"}, "dpas.nosrc0": {"*", "oo-"},
	"dpasw": {"*", "-oo-"}, "dpasw.nosrc0": {"*", "oo-"},

	"lsc.load.slm": {"*", "o---------o-"}, "lsc.load.bti": {"*", "o---------o-"},
	"lsc.load.stateless": {"*", "o---------o-"},
	"lsc.load.merge.slm": {"*", "o---------o--"}, "lsc.load.merge.bti": {"*", "o---------o--"},
	"lsc.load.merge.stateless": {"*", "o---------o--"},
	"lsc.prefetch.bti":         {"void", "o---------o-"}, "lsc.prefetch.stateless": {"void", "o---------o-"},
	"lsc.store.slm": {"void", "o---------oo-"}, "lsc.store.bti": {"void", "o---------oo-"},
	"lsc.store.stateless":  {"void", "o---------oo-"},
	"lsc.load2d.stateless": {"*", "o--------o-----"}, "lsc.prefetch2d.stateless": {"void", "o--------o-----"},
	"lsc.store2d.stateless": {"void", "o--------o-----o"},
	"lsc.xatomic.slm":       {"*", "o---------o----"}, "lsc.xatomic.bti": {"*", "o---------o----"},
	"lsc.xatomic.stateless": {"*", "o---------o----"},
	"lsc.fence":             {"void", "o---"},

	"absi": {"*", "-"}, "absf": {"*", "-"},
	"any": {"i1", "o"}, "all": {"i1", "o"}, "lane.id": {"i32", ""},
	"slm.init": {"void", "-"}, "timestamp": {"*", ""},
	"addc": {"{*,*}", "--"}, "subb": {"{*,*}", "--"},
	"bfn": {"*", "o---"}, "srnd": {"*", "oo"}, "bf.cvt": {"*", "o"}, "tf32.cvt": {"*", "o"},
	"test.src.tmpl.arg": {"void", "------"},
}

func init() {
	// Results of the argument's type: no overloaded argument.
	for _, s := range []string{"sat", "rndd", "rnde", "rndu", "rndz", "frc", "lzd", "bfrev", "fbl", "sfbh",
		"ufbh", "inv", "log", "exp", "sqrt", "ieee.sqrt", "rsqrt", "sin", "cos"} {
		genxSigs[s] = genxSig{"*", "-"}
	}
	genxSigs["pow"] = genxSig{"*", "--"}
	genxSigs["ieee.div"] = genxSig{"*", "--"}
	genxSigs["sbfe"] = genxSig{"*", "---"}
	genxSigs["bfi"] = genxSig{"*", "----"}
	// Conversions: the operand type is overloaded.
	for _, s := range []string{"fptoui.sat", "fptosi.sat", "uutrunc.sat", "ustrunc.sat", "sutrunc.sat",
		"sstrunc.sat", "cbit"} {
		genxSigs[s] = genxSig{"*", "o"}
	}
	// Binary operations whose second operand matches the first.
	for _, s := range []string{"ssshl", "sushl", "usshl", "uushl", "ssshl.sat", "sushl.sat", "usshl.sat",
		"uushl.sat", "rol", "ror", "umulh", "smulh", "fmax", "umax", "smax", "fmin", "umin", "smin"} {
		genxSigs[s] = genxSig{"*", "o-"}
	}
	for _, s := range []string{"uudp4a", "usdp4a", "sudp4a", "ssdp4a", "uudp4a.sat", "usdp4a.sat",
		"sudp4a.sat", "ssdp4a.sat"} {
		genxSigs[s] = genxSig{"*", "ooo"}
	}
	// Atomics: predicate and addresses overloaded; the data operands and
	// the old value match the result.
	for _, op := range atomicOps {
		genxSigs["svm.atomic"+op] = genxSig{"*", "oo---"[:2+svmAtomicOperands(op)]}
		genxSigs["dword.atomic"+op] = dwordAtomicSig(op)
	}
}

// svmAtomicOperands is the number of arguments an SVM atomic takes after
// its predicate and addresses (sources, then the old value).
func svmAtomicOperands(op string) int {
	switch op {
	case ".inc", ".dec", ".predec":
		return 1
	case ".cmpxchg", ".fcmpwr":
		return 3
	}
	return 2
}

// dwordAtomicSig: a surface atomic overloads its predicate and, except
// for inc, dec and cmpxchg, its offsets.
func dwordAtomicSig(op string) genxSig {
	switch op {
	case ".inc", ".dec", ".predec":
		return genxSig{"*", "o---"}
	case ".cmpxchg":
		return genxSig{"*", "o-----"}
	case ".fcmpwr":
		return genxSig{"*", "o-o---"}
	}
	return genxSig{"*", "o-o--"}
}
