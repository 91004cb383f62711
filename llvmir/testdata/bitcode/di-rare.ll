; Debug-information nodes of other languages and tools (modules, macros,
; Fortran's common blocks, strings and generic subranges, Objective-C
; properties, generic nodes): what the bitcode writer writes, checked by
; TestBitcodeWriterOracle.
@c = global i32 0, !dbg !20

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!named = !{!10, !11, !12, !13, !14, !15, !16, !17, !18, !19}

!0 = distinct !DICompileUnit(language: DW_LANG_Fortran90, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, macros: !5, globals: !21)
!1 = !DIFile(filename: "a.f90", directory: "/d")
!2 = !DIBasicType(name: "integer", size: 32, encoding: DW_ATE_signed)
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 4}
!5 = !{!6}
!6 = !DIMacroFile(file: !1, nodes: !7)
!7 = !{!8, !9}
!8 = !DIMacro(type: DW_MACINFO_define, line: 3, name: "X", value: "1")
!9 = !DIMacro(type: DW_MACINFO_undef, line: 5, name: "Y")
!10 = !DIModule(scope: null, name: "M", configMacros: "-DX", includePath: "/inc", apinotes: "m.apinotes", file: !1, line: 7)
!11 = !DIModule(scope: !10, name: "N", isDecl: true)
!12 = distinct !DICommonBlock(scope: !22, declaration: null, name: "blk", file: !1, line: 4)
!13 = !DIStringType(name: "character(*)", stringLength: !23, stringLengthExpression: !DIExpression(), size: 32)
!14 = !DIStringType(name: "character(10)", size: 80, align: 8)
!15 = !DIGenericSubrange(count: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 16, DW_OP_deref), lowerBound: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 24, DW_OP_deref), stride: !DIExpression(DW_OP_push_object_address, DW_OP_plus_uconst, 32, DW_OP_deref))
!16 = !DIObjCProperty(name: "p", file: !1, line: 9, setter: "setP:", getter: "p", attributes: 2316, type: !2)
!17 = !GenericDINode(tag: DW_TAG_entry_point, header: "h", operands: {!1, null, !2})
!18 = !GenericDINode(tag: DW_TAG_variable)
!19 = !DIMacroFile(type: DW_MACINFO_start_file, line: 2, file: !1, nodes: !{})
!20 = !DIGlobalVariableExpression(var: !24, expr: !DIExpression())
!21 = !{!20}
!22 = distinct !DISubprogram(name: "s", scope: !1, file: !1, line: 1, type: !25, unit: !0, spFlags: DISPFlagDefinition)
!23 = !DILocalVariable(name: "n", scope: !22, file: !1, line: 2, type: !2)
!24 = distinct !DIGlobalVariable(name: "c", scope: !12, file: !1, line: 4, type: !2, isLocal: false, isDefinition: true)
!25 = !DISubroutineType(types: !{null})
