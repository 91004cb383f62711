; Enumerators wider than 64 bits (signed and unsigned): what the bitcode
; writer writes, checked by TestBitcodeWriterOracle.
@g = global i32 0, !dbg !9
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !4, globals: !8)
!1 = !DIFile(filename: "a.c", directory: "/d")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{!5}
!5 = !DICompositeType(tag: DW_TAG_enumeration_type, name: "E", file: !1, line: 1, baseType: !7, size: 128, elements: !6)
!6 = !{!10, !11, !12, !13, !14, !15}
!7 = !DIBasicType(name: "__int128", size: 128, encoding: DW_ATE_signed)
!8 = !{!9}
!9 = !DIGlobalVariableExpression(var: !16, expr: !DIExpression())
!10 = !DIEnumerator(name: "A", value: 18446744073709551616)
!11 = !DIEnumerator(name: "B", value: -18446744073709551617)
!12 = !DIEnumerator(name: "C", value: 18446744073709551615, isUnsigned: true)
!13 = !DIEnumerator(name: "D", value: -9223372036854775808)
!14 = !DIEnumerator(name: "E", value: 340282366920938463463374607431768211455, isUnsigned: true)
!15 = !DIEnumerator(name: "F", value: -170141183460469231731687303715884105728)
!16 = distinct !DIGlobalVariable(name: "g", scope: !0, file: !1, line: 2, type: !7, isLocal: false, isDefinition: true)
