; The newer DWARF language and calling-convention names (LLVM 22): what the
; bitcode writer writes, checked by TestBitcodeWriterOracle.
!llvm.dbg.cu = !{!2, !3, !4, !5, !6, !7, !8, !9, !10, !11}
!named = !{!2, !3, !4, !5, !6, !7, !8, !9, !10, !11, !12, !13, !14, !15, !16, !17}
!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !DIFile(filename: "a", directory: "/d")
!2 = distinct !DICompileUnit(language: DW_LANG_GLSL, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!3 = distinct !DICompileUnit(language: DW_LANG_GLSL_ES, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!4 = distinct !DICompileUnit(language: DW_LANG_HLSL, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!5 = distinct !DICompileUnit(language: DW_LANG_OpenCL_CPP, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!6 = distinct !DICompileUnit(language: DW_LANG_CPP_for_OpenCL, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!7 = distinct !DICompileUnit(language: DW_LANG_SYCL, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!8 = distinct !DICompileUnit(language: DW_LANG_Ruby, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!9 = distinct !DICompileUnit(language: DW_LANG_Move, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!10 = distinct !DICompileUnit(language: DW_LANG_Hylo, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!11 = distinct !DICompileUnit(language: DW_LANG_Metal, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!12 = !DISubroutineType(cc: DW_CC_LLVM_M68kRTD, types: !{null})
!13 = !DISubroutineType(cc: DW_CC_LLVM_PreserveNone, types: !{null})
!14 = !DISubroutineType(cc: DW_CC_LLVM_RISCVVectorCall, types: !{null})
!15 = !DISubroutineType(cc: DW_CC_LLVM_SwiftTail, types: !{null})
!16 = !DISubroutineType(cc: DW_CC_LLVM_RISCVVLSCall, types: !{null})
!17 = !DISubroutineType(cc: DW_CC_LLVM_DeviceKernel, types: !{null})
