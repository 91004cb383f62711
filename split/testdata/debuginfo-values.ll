; Debug info in LLVM 15 syntax (typed pointers, debug intrinsics taking
; metadata as values). tget<&g1> and tget<&g2> name g1 and g2 only in their
; debug info (template value parameters) and in !extra: a module that does
; not write a global nulls the operands naming it, and the nodes whose own
; operand changed become distinct, as LLVM does when it deletes a global.
source_filename = "values.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@g1 = internal addrspace(1) global i32 1, align 4
@g2 = internal addrspace(1) global i32 2, align 4

define internal spir_func i32 @tget1(i32 %x) !dbg !10 !extra !30 {
  call void @llvm.dbg.value(metadata i32 %x, metadata !14, metadata !DIExpression()), !dbg !15
  call void @llvm.dbg.value(metadata !DIArgList(i32 %x, i32 1), metadata !14, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !15
  %r = add i32 %x, 1, !dbg !15
  ret i32 %r, !dbg !15
}

define internal spir_func i32 @tget2(i32 %x) !dbg !20 !extra !31 {
  call void @llvm.dbg.value(metadata i32 addrspace(1)* @g1, metadata !24, metadata !DIExpression()), !dbg !25
  %r = add i32 %x, 2, !dbg !25
  ret i32 %r, !dbg !25
}

define spir_kernel void @k1(i32 addrspace(1)* %o) #0 !dbg !26 {
  %v = call spir_func i32 @tget1(i32 0), !dbg !27
  store i32 %v, i32 addrspace(1)* %o, align 4, !dbg !27
  ret void, !dbg !27
}

define spir_kernel void @k2(i32 addrspace(1)* %o) #0 !dbg !28 {
  %v = call spir_func i32 @tget2(i32 0), !dbg !29
  store i32 %v, i32 addrspace(1)* %o, align 4, !dbg !29
  ret void, !dbg !29
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

attributes #0 = { "sycl-module-id"="values.cpp" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "values.cpp", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!4 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !3, size: 64, dwarfAddressSpace: 1)
!5 = !DISubroutineType(types: !6)
!6 = !{!3, !3}
!10 = distinct !DISubprogram(name: "tget<&g1>", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, templateParams: !11, retainedNodes: !13)
!11 = !{!12}
!12 = !DITemplateValueParameter(name: "P", type: !4, value: i32 addrspace(1)* @g1)
!13 = !{!14}
!14 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 1, type: !3)
!15 = !DILocation(line: 1, scope: !10)
!20 = distinct !DISubprogram(name: "tget<&g2>", scope: !1, file: !1, line: 2, type: !5, scopeLine: 2, spFlags: DISPFlagDefinition, unit: !0, templateParams: !21, retainedNodes: !23)
!21 = !{!22}
!22 = !DITemplateValueParameter(name: "P", type: !4, value: i32 addrspace(1)* @g2)
!23 = !{!24}
!24 = !DILocalVariable(name: "x", arg: 1, scope: !20, file: !1, line: 2, type: !3)
!25 = !DILocation(line: 2, scope: !20)
!26 = distinct !DISubprogram(name: "k1", scope: !1, file: !1, line: 3, type: !5, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!27 = !DILocation(line: 3, scope: !26)
!28 = distinct !DISubprogram(name: "k2", scope: !1, file: !1, line: 4, type: !5, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)
!29 = !DILocation(line: 4, scope: !28)
!30 = !{!"one", i32 addrspace(1)* @g2, !{i32 addrspace(1)* @g2, i32 7}}
!31 = !{!"two", i32 addrspace(1)* @g1}
