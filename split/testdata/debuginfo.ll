; Debug information: each module keeps the subprograms of its functions
; and, in its compile unit, only its own global variables.
source_filename = "dbg.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

@g1 = internal addrspace(1) global i32 1, align 4, !dbg !0
@g2 = internal addrspace(1) global i32 2, align 4, !dbg !5

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_func i32 @helper1(i32 noundef %0) #0 !dbg !14 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !18, !DIExpression(DW_OP_constu, 0, DW_OP_swap, DW_OP_xderef), !19)
  %3 = load i32, ptr %2, align 4, !dbg !20
  %4 = load i32, ptr addrspace(1) @g1, align 4, !dbg !21
  %5 = add nsw i32 %3, %4, !dbg !22
  ret i32 %5, !dbg !23
}

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_func i32 @helper2(i32 noundef %0) #0 !dbg !24 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !25, !DIExpression(DW_OP_constu, 0, DW_OP_swap, DW_OP_xderef), !26)
  %3 = load i32, ptr %2, align 4, !dbg !27
  %4 = load i32, ptr addrspace(1) @g2, align 4, !dbg !28
  %5 = mul nsw i32 %3, %4, !dbg !29
  ret i32 %5, !dbg !30
}

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @k1(ptr addrspace(1) noundef align 4 %0) #1 !dbg !31 !kernel_arg_addr_space !35 !kernel_arg_access_qual !36 !kernel_arg_type !37 !kernel_arg_base_type !37 !kernel_arg_type_qual !38 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8
    #dbg_declare(ptr %2, !39, !DIExpression(DW_OP_constu, 0, DW_OP_swap, DW_OP_xderef), !40)
  %3 = call spir_func i32 @helper1(i32 noundef 3) #2, !dbg !41
  %4 = load ptr addrspace(1), ptr %2, align 8, !dbg !42
  %5 = getelementptr inbounds i32, ptr addrspace(1) %4, i64 0, !dbg !42
  store i32 %3, ptr addrspace(1) %5, align 4, !dbg !43
  ret void, !dbg !44
}

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_kernel void @k2(ptr addrspace(1) noundef align 4 %0) #1 !dbg !45 !kernel_arg_addr_space !35 !kernel_arg_access_qual !36 !kernel_arg_type !37 !kernel_arg_base_type !37 !kernel_arg_type_qual !38 {
  %2 = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %0, ptr %2, align 8
    #dbg_declare(ptr %2, !46, !DIExpression(DW_OP_constu, 0, DW_OP_swap, DW_OP_xderef), !47)
  %3 = call spir_func i32 @helper2(i32 noundef 4) #2, !dbg !48
  %4 = load ptr addrspace(1), ptr %2, align 8, !dbg !49
  %5 = getelementptr inbounds i32, ptr addrspace(1) %4, i64 0, !dbg !49
  store i32 %3, ptr addrspace(1) %5, align 4, !dbg !50
  ret void, !dbg !51
}

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #2 = { convergent nounwind }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!8, !9, !10, !11}
!opencl.ocl.version = !{!12}
!opencl.spir.version = !{!12}
!llvm.ident = !{!13}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression(DW_OP_constu, 1, DW_OP_swap, DW_OP_xderef))
!1 = distinct !DIGlobalVariable(name: "g1", scope: !2, file: !3, line: 1, type: !7, isLocal: true, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !3, producer: "clang version 19", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "dbg.cl", directory: "/tmp", checksumkind: CSK_MD5, checksum: "56e610f048fccfced5d59c738a24d714")
!4 = !{!0, !5}
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression(DW_OP_constu, 1, DW_OP_swap, DW_OP_xderef))
!6 = distinct !DIGlobalVariable(name: "g2", scope: !2, file: !3, line: 2, type: !7, isLocal: true, isDefinition: true)
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !{i32 7, !"Dwarf Version", i32 5}
!9 = !{i32 2, !"Debug Info Version", i32 3}
!10 = !{i32 1, !"wchar_size", i32 4}
!11 = !{i32 7, !"frame-pointer", i32 2}
!12 = !{i32 2, i32 0}
!13 = !{!"clang version 19"}
!14 = distinct !DISubprogram(name: "helper1", scope: !3, file: !3, line: 3, type: !15, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)
!15 = !DISubroutineType(cc: DW_CC_LLVM_SpirFunction, types: !16)
!16 = !{!7, !7}
!17 = !{}
!18 = !DILocalVariable(name: "x", arg: 1, scope: !14, file: !3, line: 3, type: !7)
!19 = !DILocation(line: 3, column: 17, scope: !14)
!20 = !DILocation(line: 3, column: 29, scope: !14)
!21 = !DILocation(line: 3, column: 33, scope: !14)
!22 = !DILocation(line: 3, column: 31, scope: !14)
!23 = !DILocation(line: 3, column: 22, scope: !14)
!24 = distinct !DISubprogram(name: "helper2", scope: !3, file: !3, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)
!25 = !DILocalVariable(name: "x", arg: 1, scope: !24, file: !3, line: 4, type: !7)
!26 = !DILocation(line: 4, column: 17, scope: !24)
!27 = !DILocation(line: 4, column: 29, scope: !24)
!28 = !DILocation(line: 4, column: 33, scope: !24)
!29 = !DILocation(line: 4, column: 31, scope: !24)
!30 = !DILocation(line: 4, column: 22, scope: !24)
!31 = distinct !DISubprogram(name: "k1", scope: !3, file: !3, line: 5, type: !32, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)
!32 = !DISubroutineType(cc: DW_CC_LLVM_OpenCLKernel, types: !33)
!33 = !{null, !34}
!34 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !7, size: 64, dwarfAddressSpace: 1)
!35 = !{i32 1}
!36 = !{!"none"}
!37 = !{!"int*"}
!38 = !{!""}
!39 = !DILocalVariable(name: "out", arg: 1, scope: !31, file: !3, line: 5, type: !34)
!40 = !DILocation(line: 5, column: 28, scope: !31)
!41 = !DILocation(line: 5, column: 44, scope: !31)
!42 = !DILocation(line: 5, column: 35, scope: !31)
!43 = !DILocation(line: 5, column: 42, scope: !31)
!44 = !DILocation(line: 5, column: 56, scope: !31)
!45 = distinct !DISubprogram(name: "k2", scope: !3, file: !3, line: 6, type: !32, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)
!46 = !DILocalVariable(name: "out", arg: 1, scope: !45, file: !3, line: 6, type: !34)
!47 = !DILocation(line: 6, column: 28, scope: !45)
!48 = !DILocation(line: 6, column: 44, scope: !45)
!49 = !DILocation(line: 6, column: 35, scope: !45)
!50 = !DILocation(line: 6, column: 42, scope: !45)
!51 = !DILocation(line: 6, column: 56, scope: !45)
