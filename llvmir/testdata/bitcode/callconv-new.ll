; The named calling conventions LLVM 19 reads and LLVM 15 does not, on
; declarations and calls: checked by TestBitcodeWriterOracle.
declare preserve_nonecc void @f0()
declare amdgpu_cs_chain void @f1()
declare amdgpu_cs_chain_preserve void @f2()
declare m68k_rtdcc void @f3()
declare graalcc void @f4()
declare riscv_vector_cc void @f5()
declare aarch64_sme_preservemost_from_x0 void @f6()
declare aarch64_sme_preservemost_from_x1 void @f7()
declare aarch64_sme_preservemost_from_x2 void @f8()

define void @all() {
  call preserve_nonecc void @f0()
  call m68k_rtdcc void @f3()
  call graalcc void @f4()
  call riscv_vector_cc void @f5()
  call aarch64_sme_preservemost_from_x0 void @f6()
  call aarch64_sme_preservemost_from_x1 void @f7()
  call aarch64_sme_preservemost_from_x2 void @f8()
  call cc 200 void @f0()
  ret void
}
