package props

import "strings"

// The fallback device libraries the SYCL runtime can link in, one bit each
// in the DeviceLibReqMask property (the order of the reference's
// DeviceLibExt enumeration).
const (
	libAssert      uint32 = 1 << iota // cl_intel_devicelib_assert
	libMath                           // cl_intel_devicelib_math
	libMathFP64                       // cl_intel_devicelib_math_fp64
	libComplex                        // cl_intel_devicelib_complex
	libComplexFP64                    // cl_intel_devicelib_complex_fp64
	libCString                        // cl_intel_devicelib_cstring
	libIMF                            // cl_intel_devicelib_imf
	libIMFFP64                        // cl_intel_devicelib_imf_fp64
	libIMFBF16                        // cl_intel_devicelib_imf_bf16
	libBFloat16                       // cl_intel_devicelib_bfloat16
	libGroupSort                      // cl_intel_devicelib_gsort (by prefix only)
)

// deviceLibFuncs lists, per library, the __devicelib_ functions it
// provides, without that prefix. A name ending in "_r*" stands for its four
// rounding variants _rd, _rn, _ru and _rz; "{a,b}" lists alternatives.
var deviceLibFuncs = map[uint32]string{
	libAssert: "assert_read assert_fail",
	libMath: `abs div labs ldiv llabs lldiv
		{acos,acosh,asin,asinh,atan2,atan,atanh,cbrt,cos,cosh,erfc,erf,exp2,exp,expm1,fdim,fma,fmod,frexp,hypot,ilogb,ldexp,lgamma,log10,log1p,log2,logb,log,modf,nextafter,pow,remainder,remquo,scalbn,sin,sinh,sqrt,tan,tanh,tgamma}f`,
	libMathFP64: `acos acosh asin asinh atan atan2 atanh cbrt cos cosh erf erfc exp exp2 expm1 fdim fma fmod
		frexp hypot ilogb ldexp lgamma log log10 log1p log2 logb modf nextafter pow remainder remquo scalbn
		sin sinh sqrt tan tanh tgamma`,
	libComplex: `__divsc3 __mulsc3
		{cabs,cacos,cacosh,carg,casin,casinh,catan,catanh,ccos,ccosh,cexp,cimag,clog,cpolar,cpow,cproj,creal,csin,csinh,csqrt,ctan,ctanh}f`,
	libComplexFP64: `__divdc3 __muldc3 cabs cacos cacosh carg casin casinh catan catanh ccos ccosh cexp cimag
		clog cpolar cpow cproj creal csin csinh csqrt ctan ctanh`,
	libCString: "memcpy memset memcmp",
	libIMF: `imf_{llmax,llmin,max,min,ullmax,ullmin,umax,umin,brev,brevll,byte_perm,ffs,ffsll,clz,clzll,popc,popcll}
		imf_{sad,usad,uhadd,urhadd,hadd,rhadd,mul24,umul24,mulhi,umulhi,mul64hi,umul64hi,saturatef}
		imf_{fmaf,floorf,ceilf,abs,llabs,fabsf,truncf,rintf,nearbyintf,invf,sqrtf,rsqrtf,fmaxf,fminf,copysignf}
		imf_fast_{exp10f,expf,logf,log2f,log10f,powf,fdividef}
		imf_{fadd,fsub,fmul,fdiv,fmaf,sqrtf}_r*
		imf_{float2int,float2uint,float2ll,float2ull}_r* imf_float_as_int
		imf_int2float_r* imf_int_as_float imf_float_as_uint imf_ll2float_r* imf_uint2float_r* imf_uint_as_float
		imf_ull2float_r* imf_float2half_r* imf_half2float
		imf_{half2int,half2ll,half2short,half2uint,half2ull,half2ushort}_r* imf_half_as_short imf_half_as_ushort
		imf_{uint2half,ull2half,ushort2half}_r* imf_ushort_as_half imf_{int2half,ll2half,short2half}_r* imf_short_as_half
		imf_{fma,floor,ceil,fabs,trunc,rint,nearbyint,inv,sqrt,rsqrt,fmax,fmin,copysign}f16
		imf_v{abs,absss,neg,negss,absdiffs,absdiffu,add,addss,addus,sub,subss,subus,avgs,avgu,haddu}{2,4}
		imf_vcmp{eq,ne,ges,geu,gts,gtu,les,leu,lts,ltu}{2,4} imf_v{maxs,maxu,mins,minu}{2,4}
		imf_vset{eq,ne,ges,geu,gts,gtu,les,leu,lts,ltu}{2,4} imf_v{sads,sadu}{2,4}`,
	libIMFFP64: `imf_double2half imf_double2bfloat16
		imf_{fma,floor,ceil,fabs,trunc,rint,rcp64h,nearbyint,inv,sqrt,rsqrt,fmax,fmin,copysign}
		imf_{dadd,dsub,dmul,ddiv}_r* imf_{double2float,double2int,double2uint}_r* imf_double2hiint imf_double2loint
		imf_{double2ll,double2ull}_r* imf_double_as_longlong imf_hiloint2double imf_int2double_rn
		imf_{ll2double,ull2double}_r* imf_uint2double_rn imf_longlong_as_double imf_{fma,sqrt}_r*`,
	libIMFBF16: `imf_bfloat162float imf_{bfloat162int,bfloat162short,bfloat162ll,bfloat162uint,bfloat162ushort,bfloat162ull}_r*
		imf_float2bfloat16 imf_float2bfloat16_r* imf_bfloat16_as_short imf_bfloat16_as_ushort imf_short_as_bfloat16
		imf_ushort_as_bfloat16 imf_{ushort2bfloat16,uint2bfloat16,ull2bfloat16,short2bfloat16,int2bfloat16,ll2bfloat16}_r*
		imf_{fma,fmax,fmin,copysign,sqrt,rsqrt,fabs,rint,floor,ceil,trunc}bf16`,
	libBFloat16: `Convert{FToBF16,BF16ToF}INTEL Convert{FToBF16,BF16ToF}INTELVec{1,2,3,4,8,16}`,
}

// deviceLibBit maps each full __devicelib_ function name to its library bit.
var deviceLibBit = func() map[string]uint32 {
	m := map[string]uint32{}
	for bit, list := range deviceLibFuncs {
		for _, pat := range strings.Fields(list) {
			for _, name := range expandNames(pat) {
				m["__devicelib_"+name] = bit
			}
		}
	}
	return m
}()

// expandNames expands "{a,b}" alternatives and a trailing "_r*" into the
// names a pattern stands for.
func expandNames(pat string) []string {
	if strings.HasSuffix(pat, "_r*") {
		var out []string
		for _, n := range expandNames(strings.TrimSuffix(pat, "*")) {
			for _, r := range "dnuz" {
				out = append(out, n+string(r))
			}
		}
		return out
	}
	open := strings.IndexByte(pat, '{')
	if open < 0 {
		return []string{pat}
	}
	end := open + strings.IndexByte(pat[open:], '}')
	var out []string
	for _, alt := range strings.Split(pat[open+1:end], ",") {
		out = append(out, expandNames(pat[:open]+alt+pat[end+1:])...)
	}
	return out
}

// DeviceLibReqMask returns the mask of fallback device libraries the image
// needs: the OR of the bits of every __devicelib_ function it declares. It
// is 0 for images whose triple is neither SPIR nor SPIR-V (the libraries
// exist only as SPIR-V; the reference asks the same of the triple, as
// device-requirements/mask.ll shows with spirv64). Undeclared group-sort helpers (__devicelib_default_work_group_*,
// __devicelib_default_sub_group_*) need the group-sort library.
func DeviceLibReqMask(img *Image) uint32 {
	if !isSPIROrSPIRV(img.M.Triple) {
		return 0
	}
	var mask uint32
	for _, f := range img.functions() {
		if !strings.HasPrefix(f.Name, "__devicelib_") || !img.isDecl(f) {
			continue
		}
		bit, ok := deviceLibBit[f.Name]
		if !ok && (strings.HasPrefix(f.Name, "__devicelib_default_work_group_") ||
			strings.HasPrefix(f.Name, "__devicelib_default_sub_group_")) {
			bit = libGroupSort
		}
		mask |= bit
	}
	return mask
}
