; Splats of scalable vectors (built by LLVM as a shufflevector of an
; insertelement) and of fixed ones: what the bitcode writer writes, checked by
; TestBitcodeWriterOracle.
define <vscale x 4 x i32> @f(<vscale x 4 x i32> %x) {
  %a = add <vscale x 4 x i32> %x, splat (i32 1)
  %b = add <vscale x 4 x i32> %a, splat (i32 0)
  %c = fadd <vscale x 2 x double> zeroinitializer, splat (double 1.0)
  ret <vscale x 4 x i32> %b
}
define <4 x i32> @g(<4 x i32> %x) {
  %a = add <4 x i32> %x, splat (i32 7)
  ret <4 x i32> %a
}
