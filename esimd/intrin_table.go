package esimd

// LSC sub-opcodes the table passes as constants.
const (
	lscLoad  = 0x00
	lscStore = 0x04
)

// intrinTable is the reference's ESIMDIntrinDescTable: how each
// __esimd_<stem> builtin becomes a call of llvm.genx.<spelling>. The GenX
// argument order is the builtin's, except that arguments GenX wants
// constant come from the builtin's template arguments.
var intrinTable = map[string]intrinDesc{
	// Regions.
	"rdregion":   {"rdregion", []argRule{a(0), t(3), t(4), t(5), a(1), t(6)}, nk(-1)},
	"rdindirect": {"rdregion", []argRule{a(0), c32(0), c32(1), c32(0), a(1), t(3)}, nk(-1)},
	"wrregion":   {"wrregion", []argRule{a(0), a(1), t(3), t(4), t(5), a(2), t(6), ai1(3)}, nk(-1)},
	"wrindirect": {"wrregion", []argRule{a(0), a(1), c32(0), c32(1), c32(0), a(2), t(3), ai1(3)}, nk(-1)},
	"vload":      {"vload", []argRule{l(0)}, suffixRule{}},
	"vstore":     {"vstore", []argRule{a(1), a(0)}, suffixRule{}},

	// Shared virtual memory.
	"svm_gather":          {"svm.gather", []argRule{ai1(1), t(3), a(0), u(-1)}, suffixRule{}},
	"svm_gather4_scaled":  {"svm.gather4.scaled", []argRule{ai1(1), t(2), c16(0), c64(0), a(0), u(-1)}, suffixRule{}},
	"svm_scatter":         {"svm.scatter", []argRule{ai1(2), t(3), a(0), a(1)}, suffixRule{}},
	"svm_scatter4_scaled": {"svm.scatter4.scaled", []argRule{ai1(2), t(2), c16(0), c64(0), a(0), a(1)}, suffixRule{}},
	"svm_atomic0":         {"svm.atomic", []argRule{ai1(1), a(0), u(-1)}, bo(0)},
	"svm_atomic1":         {"svm.atomic", []argRule{ai1(2), a(0), a(1), u(-1)}, bo(0)},
	"svm_atomic2":         {"svm.atomic", []argRule{ai1(3), a(0), a(1), a(2), u(-1)}, bo(0)},

	"dp4":      {"dp4", []argRule{a(0), a(1)}, suffixRule{}},
	"fence":    {"fence", []argRule{a(0)}, suffixRule{}},
	"barrier":  {"barrier", nil, suffixRule{}},
	"sbarrier": {"sbarrier", []argRule{a(0)}, suffixRule{}},

	// Surfaces (a surface index argument is passed as is).
	"media_ld":               {"media.ld", []argRule{t(3), aSI(0), t(5), t(6), a(1), a(2)}, suffixRule{}},
	"media_st":               {"media.st", []argRule{t(3), aSI(0), t(5), t(6), a(1), a(2), a(3)}, suffixRule{}},
	"oword_ld_unaligned":     {"oword.ld.unaligned", []argRule{t(3), aSI(0), a(1)}, suffixRule{}},
	"oword_ld":               {"oword.ld", []argRule{t(3), aSI(0), a(1)}, suffixRule{}},
	"oword_st":               {"oword.st", []argRule{aSI(0), a(1), a(2)}, suffixRule{}},
	"gather_masked_scaled2":  {"gather.masked.scaled2", []argRule{t(3), t(4), aSI(0), a(1), a(2), ai1(3)}, suffixRule{}},
	"gather4_masked_scaled2": {"gather4.masked.scaled2", []argRule{t(2), t(4), aSI(0), a(1), a(2), ai1(3)}, suffixRule{}},
	"scatter_scaled":         {"scatter.scaled", []argRule{ai1(0), t(3), t(4), aSI(1), a(2), a(3), a(4)}, suffixRule{}},
	"gather4_scaled":         {"gather4.scaled", []argRule{ai1(0), t(3), t(4), aSI(1), a(2), a(3), u(-1)}, suffixRule{}},
	"scatter4_scaled":        {"scatter4.scaled", []argRule{ai1(0), t(3), t(4), aSI(1), a(2), a(3), a(4)}, suffixRule{}},
	"dword_atomic0":          {"dword.atomic", []argRule{ai1(0), aSI(1), a(2), u(-1)}, bo(0)},
	"dword_atomic1":          {"dword.atomic", []argRule{ai1(0), aSI(1), a(2), a(3), u(-1)}, bo(0)},
	"dword_atomic2":          {"dword.atomic", []argRule{ai1(0), aSI(1), a(2), a(3), a(4), u(-1)}, bo(0)},

	// Raw sends.
	"raw_sends2":          {"raw.sends2", []argRule{a(0), a(1), ai1(2), a(3), a(4), a(5), a(6), a(7), a(8), a(9), a(10), a(11)}, suffixRule{}},
	"raw_send2":           {"raw.send2", []argRule{a(0), a(1), ai1(2), a(3), a(4), a(5), a(6), a(7), a(8), a(9)}, suffixRule{}},
	"raw_sends2_noresult": {"raw.sends2.noresult", []argRule{a(0), a(1), ai1(2), a(3), a(4), a(5), a(6), a(7), a(8), a(9)}, suffixRule{}},
	"raw_send2_noresult":  {"raw.send2.noresult", []argRule{a(0), a(1), ai1(2), a(3), a(4), a(5), a(6), a(7)}, suffixRule{}},
	// The constexpr sends take their modifiers, sizes and SFID as template
	// arguments (i8), the predicate as argument 0.
	"raw_send2_constexpr":           {"raw.send2", []argRule{t8(0), t8(1), ai1(0), t8(2), t8(3), t8(4), a(1), a(2), a(3), a(4)}, suffixRule{}},
	"raw_send2_noresult_constexpr":  {"raw.send2.noresult", []argRule{t8(0), t8(1), ai1(0), t8(2), t8(3), a(1), a(2), a(3)}, suffixRule{}},
	"raw_sends2_constexpr":          {"raw.sends2", []argRule{t8(0), t8(1), ai1(0), t8(2), t8(3), t8(4), t8(5), a(1), a(2), a(3), a(4), a(5)}, suffixRule{}},
	"raw_sends2_noresult_constexpr": {"raw.sends2.noresult", []argRule{t8(0), t8(1), ai1(0), t8(2), t8(3), t8(4), a(1), a(2), a(3), a(4)}, suffixRule{}},
	"wait":                          {"dummy.mov", []argRule{a(0)}, suffixRule{}},
	"raw_send_nbarrier_signal":      {"raw.send.noresult", []argRule{a(0), ai1(4), a(1), a(2), a(3)}, suffixRule{}},
	"nbarrier":                      {"nbarrier", []argRule{a(0), a(1), a(2)}, suffixRule{}},

	// Matrix (DPAS).
	"dpas2":        {"dpas2", []argRule{a(0), a(1), a(2), t(0), t(1), t(2), t(3), t(11), t(12)}, suffixRule{}},
	"dpas_nosrc0":  {"dpas.nosrc0", []argRule{a(0), a(1), t(0)}, suffixRule{}},
	"dpasw":        {"dpasw", []argRule{a(0), a(1), a(2), t(0)}, suffixRule{}},
	"dpasw_nosrc0": {"dpasw.nosrc0", []argRule{a(0), a(1), t(0)}, suffixRule{}},

	// LSC (load/store cache) memory access.
	"lsc_load_slm":             lscAccess("lsc.load.slm", lscLoad, c32(0)),
	"lsc_load_merge_slm":       lscAccess("lsc.load.merge.slm", lscLoad, c32(0), a(2)),
	"lsc_load_bti":             lscAccess("lsc.load.bti", lscLoad, aSI(2)),
	"lsc_load_merge_bti":       lscAccess("lsc.load.merge.bti", lscLoad, aSI(2), a(3)),
	"lsc_load_stateless":       lscAccess("lsc.load.stateless", lscLoad, c32(0)),
	"lsc_load_merge_stateless": lscAccess("lsc.load.merge.stateless", lscLoad, c32(0), a(2)),
	"lsc_prefetch_bti":         lscAccess("lsc.prefetch.bti", lscLoad, aSI(2)),
	"lsc_prefetch_stateless":   lscAccess("lsc.prefetch.stateless", lscLoad, c32(0)),
	"lsc_store_slm":            lscAccess("lsc.store.slm", lscStore, a(2), c32(0)),
	"lsc_store_bti":            lscAccess("lsc.store.bti", lscStore, a(2), aSI(3)),
	"lsc_store_stateless":      lscAccess("lsc.store.stateless", lscStore, a(2), c32(0)),
	"lsc_load2d_stateless":     lsc2D("lsc.load2d.stateless", 6),
	"lsc_prefetch2d_stateless": lsc2D("lsc.prefetch2d.stateless", 6),
	"lsc_store2d_stateless":    lsc2D("lsc.store2d.stateless", 7),
	"lsc_xatomic_slm_0":        lscAtomic("lsc.xatomic.slm", u(-1), u(-1), c32(0)),
	"lsc_xatomic_slm_1":        lscAtomic("lsc.xatomic.slm", a(2), u(-1), c32(0)),
	"lsc_xatomic_slm_2":        lscAtomic("lsc.xatomic.slm", a(2), a(3), c32(0)),
	"lsc_xatomic_bti_0":        lscAtomic("lsc.xatomic.bti", u(-1), u(-1), aSI(2)),
	"lsc_xatomic_bti_1":        lscAtomic("lsc.xatomic.bti", a(2), u(-1), aSI(3)),
	"lsc_xatomic_bti_2":        lscAtomic("lsc.xatomic.bti", a(2), a(3), aSI(4)),
	"lsc_xatomic_stateless_0":  lscAtomic("lsc.xatomic.stateless", u(-1), u(-1), c32(0)),
	"lsc_xatomic_stateless_1":  lscAtomic("lsc.xatomic.stateless", a(2), u(-1), c32(0)),
	"lsc_xatomic_stateless_2":  lscAtomic("lsc.xatomic.stateless", a(2), a(3), c32(0)),
	"lsc_fence":                {"lsc.fence", []argRule{ai1(0), t8(0), t8(1), t8(2)}, suffixRule{}},

	"any":       {"any", []argRule{ai1(0)}, suffixRule{}},
	"all":       {"all", []argRule{ai1(0)}, suffixRule{}},
	"lane_id":   {"lane.id", nil, suffixRule{}},
	"slm_init":  {"slm.init", []argRule{a(0)}, suffixRule{}},
	"timestamp": {"timestamp", nil, suffixRule{}},
	"addc":      {"addc", []argRule{l(0)}, suffixRule{}},
	"subb":      {"subb", []argRule{l(0)}, suffixRule{}},
	"bfn":       {"bfn", []argRule{a(0), a(1), a(2), t(0)}, suffixRule{}},
	"abs":       {"abs", []argRule{a(0)}, nk(-1)},

	// The reference's own test of template argument conversions.
	"test_src_tmpl_arg": {"test.src.tmpl.arg", []argRule{t(0), t1(1), t8(2), t16(3), t32(4), c8(17)}, suffixRule{}},
}

// Arithmetic builtins whose GenX spelling is the stem with '_' as '.' and
// whose arguments are the call's, in order.
func init() {
	for n, stems := range map[int][]string{
		1: {"sat", "fptoui_sat", "fptosi_sat", "uutrunc_sat", "ustrunc_sat", "sutrunc_sat", "sstrunc_sat",
			"rndd", "rnde", "rndu", "rndz", "frc", "lzd", "bfrev", "cbit", "fbl", "sfbh", "ufbh",
			"inv", "log", "exp", "sqrt", "ieee_sqrt", "rsqrt", "sin", "cos", "bf_cvt", "tf32_cvt"},
		2: {"ssshl", "sushl", "usshl", "uushl", "ssshl_sat", "sushl_sat", "usshl_sat", "uushl_sat",
			"rol", "ror", "umulh", "smulh", "fmax", "umax", "smax", "fmin", "umin", "smin",
			"pow", "ieee_div", "srnd"},
		3: {"sbfe", "uudp4a", "usdp4a", "sudp4a", "ssdp4a", "uudp4a_sat", "usdp4a_sat", "sudp4a_sat", "ssdp4a_sat"},
		4: {"bfi"},
	} {
		for _, s := range stems {
			rules := make([]argRule, n)
			for i := range rules {
				rules[i] = a(i)
			}
			intrinTable[s] = intrinDesc{genx: dotted(s), rules: rules}
		}
	}
}

// dotted: "ieee_sqrt" → "ieee.sqrt".
func dotted(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '_' {
			b[i] = '.'
		}
	}
	return string(b)
}

// lscAccess is an LSC load, prefetch or store: predicate, sub-opcode,
// cache hints, address scale, offset, data size, vector size, transpose
// (template arguments 1-7), channel mask, the addresses, then tail (the
// surface, stored data, merged value).
func lscAccess(genx string, op int, tail ...argRule) intrinDesc {
	rules := []argRule{ai1(0), c8(op), t8(1), t8(2), t16(3), t32(4), t8(5), t8(6), t8(7), c8(0), a(1)}
	return intrinDesc{genx: genx, rules: append(rules, tail...)}
}

// lsc2D is a 2D block access: predicate, template arguments 1-8 (cache
// hints, data size, transpose, block count, width, height, VNNI), then
// the call's arguments 1 to last.
func lsc2D(genx string, last int) intrinDesc {
	rules := []argRule{ai1(0), t8(1), t8(2), t8(3), t8(4), t8(5), t16(6), t16(7), t8(8)}
	for i := 1; i <= last; i++ {
		rules = append(rules, a(i))
	}
	return intrinDesc{genx: genx, rules: rules}
}

// lscAtomic is an LSC atomic: predicate, template arguments 1-8 (the
// operation, cache hints, scale, offset, data size, vector size,
// transpose), channel mask, addresses, the two sources, the surface and
// the old value (undef).
func lscAtomic(genx string, src0, src1, surf argRule) intrinDesc {
	return intrinDesc{genx: genx, rules: []argRule{ai1(0), t8(1), t8(2), t8(3), t16(4), t32(5), t8(6), t8(7), t8(8),
		c8(0), a(1), src0, src1, surf, u(-1)}}
}
