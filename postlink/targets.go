package postlink

import "slices"

// targetInfo is what the device configuration file (DeviceConfigFile.td)
// says about one AOT target: the aspects it supports, by name, and its
// sub-group sizes.
type targetInfo struct {
	aspects       []string
	subGroupSizes []int
}

// The Intel GPU rows of the device configuration file. Every Intel GPU
// target has the same base aspects plus fp16/atomic64 and, for most, fp64;
// the sub-group sizes are 8/16/32 except on Xe-HPC and later (16/32).
var (
	intelGPUBase = []string{"ext_intel_esimd", "ext_oneapi_fragment", "ext_oneapi_chunk", "ext_oneapi_tangle"}
	fp16fp64a64  = append(slices.Clone(intelGPUBase), "fp16", "fp64", "atomic64")
	fp16a64      = append(slices.Clone(intelGPUBase), "fp16", "atomic64")
	sg8to32      = []int{8, 16, 32}
	sg16to32     = []int{16, 32}
)

var targetTable = map[string]targetInfo{
	"intel_gpu_cri":     {fp16fp64a64, sg16to32},
	"intel_gpu_nvl_p":   {fp16fp64a64, sg16to32},
	"intel_gpu_nvl_u":   {fp16fp64a64, sg16to32},
	"intel_gpu_nvl_s":   {fp16fp64a64, sg16to32},
	"intel_gpu_wcl":     {fp16fp64a64, sg16to32},
	"intel_gpu_ptl":     {fp16fp64a64, sg16to32},
	"intel_gpu_ptl_u":   {fp16fp64a64, sg16to32},
	"intel_gpu_ptl_h":   {fp16fp64a64, sg16to32},
	"intel_gpu_bmg":     {fp16fp64a64, sg16to32},
	"intel_gpu_lnl_m":   {fp16fp64a64, sg16to32},
	"intel_gpu_bmg_g31": {fp16fp64a64, sg16to32},
	"intel_gpu_bmg_g21": {fp16fp64a64, sg16to32},
	"intel_gpu_arl_h":   {fp16fp64a64, sg8to32},
	"intel_gpu_mtl":     {fp16fp64a64, sg8to32},
	"intel_gpu_mtl_h":   {fp16fp64a64, sg8to32},
	"intel_gpu_mtl_u":   {fp16fp64a64, sg8to32},
	"intel_gpu_pvc_vg":  {fp16fp64a64, sg16to32},
	"intel_gpu_pvc":     {fp16fp64a64, sg16to32},
	"intel_gpu_dg2":     {fp16a64, sg8to32},
	"intel_gpu_acm_g12": {fp16a64, sg8to32},
	"intel_gpu_acm_g11": {fp16a64, sg8to32},
	"intel_gpu_acm_g10": {fp16a64, sg8to32},
	"intel_gpu_dg1":     {fp16a64, sg8to32},
	"intel_gpu_adl_n":   {fp16a64, sg8to32},
	"intel_gpu_adl_p":   {fp16a64, sg8to32},
	"intel_gpu_adl_s":   {fp16a64, sg8to32},
	"intel_gpu_rkl":     {fp16a64, sg8to32},
	"intel_gpu_tgllp":   {fp16a64, sg8to32},
	"intel_gpu_ehl":     {fp16a64, sg8to32},
	"intel_gpu_icllp":   {fp16a64, sg8to32},
	"intel_gpu_cml":     {fp16fp64a64, sg8to32},
	"intel_gpu_aml":     {fp16fp64a64, sg8to32},
	"intel_gpu_whl":     {fp16fp64a64, sg8to32},
	"intel_gpu_glk":     {fp16fp64a64, sg8to32},
	"intel_gpu_apl":     {fp16fp64a64, sg8to32},
	"intel_gpu_cfl":     {fp16fp64a64, sg8to32},
	"intel_gpu_kbl":     {fp16fp64a64, sg8to32},
	"intel_gpu_skl":     {fp16fp64a64, sg8to32},
	"intel_gpu_bdw":     {fp16fp64a64, sg8to32},
}

// Requirements are the optional features a module needs, as far as target
// filtering looks at them: the names of the aspects it uses and the
// sub-group size its entry points require, if any.
type Requirements struct {
	Aspects      []string
	SubGroupSize int
	HasSGSize    bool
}

// TargetAccepts reports whether a module with requirements req belongs in
// the table of target: always for a table without target or a target the
// configuration file does not describe; otherwise every aspect must be
// supported and, except for ESIMD modules (whose required sub-group size 1
// no target lists), the sub-group size too.
func TargetAccepts(target string, req Requirements, esimd bool) bool {
	if target == "" {
		return true
	}
	info, ok := targetTable[target]
	if !ok {
		return true
	}
	for _, a := range req.Aspects {
		if !slices.Contains(info.aspects, a) {
			return false
		}
	}
	if !esimd && req.HasSGSize && !slices.Contains(info.subGroupSizes, req.SubGroupSize) {
		return false
	}
	return true
}
