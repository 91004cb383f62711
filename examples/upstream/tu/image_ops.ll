; ModuleID = 'src/image_ops.cpp'
source_filename = "src/image_ops.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define dso_local spir_func noundef i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef %lo, i32 noundef %hi) local_unnamed_addr #0 {
entry:
  %cmp = icmp slt i32 %v, %lo
  %cond = tail call i32 @llvm.smin.i32(i32 %v, i32 %hi)
  %cond5 = select i1 %cmp, i32 %lo, i32 %cond
  ret i32 %cond5
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local spir_kernel void @_ZTS9Threshold(ptr addrspace(1) noundef captures(none) %args, i32 noundef %args1) local_unnamed_addr #1 {
entry:
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #4
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  %0 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !2
  %cmp.not.i = icmp slt i32 %0, %args1
  br i1 %cmp.not.i, label %_ZNK9ThresholdclEPU3AS1ii.exit, label %cond.true.i

cond.true.i:                                      ; preds = %entry
  %call3.i = tail call spir_func noundef i32 @_Z7combineii(i32 noundef %0, i32 noundef %args1) #4
  br label %_ZNK9ThresholdclEPU3AS1ii.exit

_ZNK9ThresholdclEPU3AS1ii.exit:                   ; preds = %entry, %cond.true.i
  %cond.i = phi i32 [ %call3.i, %cond.true.i ], [ 0, %entry ]
  store i32 %cond.i, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !2
  ret void
}

; Function Attrs: convergent nounwind
declare spir_func noundef i32 @_Z7combineii(i32 noundef, i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare spir_func i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local spir_kernel void @_ZTS5Clamp(ptr addrspace(1) noundef captures(address) %args, i32 noundef %args1, i32 noundef %args3) local_unnamed_addr #1 {
entry:
  %cmp.i = icmp eq ptr addrspace(1) %args, addrspacecast (ptr addrspace(4) null to ptr addrspace(1))
  br i1 %cmp.i, label %_ZNK5ClampclEPU3AS1iii.exit, label %if.end.i

if.end.i:                                         ; preds = %entry
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #4
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  %0 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !2
  %cmp.i.i = icmp slt i32 %0, %args1
  %cond.i.i = tail call i32 @llvm.smin.i32(i32 %0, i32 %args3)
  %cond5.i.i = select i1 %cmp.i.i, i32 %args1, i32 %cond.i.i
  store i32 %cond5.i.i, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !2
  br label %_ZNK5ClampclEPU3AS1iii.exit

_ZNK5ClampclEPU3AS1iii.exit:                      ; preds = %entry, %if.end.i
  ret void
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #3

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress norecurse nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }

!llvm.module.flags = !{!0}
!llvm.ident = !{!1}
!llvm.errno.tbaa = !{!2}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!2 = !{!3, !3, i64 0}
!3 = !{!"int", !4, i64 0}
!4 = !{!"omnipotent char", !5, i64 0}
!5 = !{!"Simple C++ TBAA"}
