; ModuleID = 'llvm-link'
source_filename = "llvm-link"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

%struct.specialization_id = type { i32 }

@__usn_str = private unnamed_addr addrspace(1) constant [28 x i8] c"_ZTSK17specialization_idIiE\00", align 1
@_ZL5scale = internal addrspace(1) constant %struct.specialization_id { i32 3 }, align 4

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define dso_local spir_func noundef i32 @_Z7combineii(i32 noundef %a, i32 noundef %b) local_unnamed_addr #0 {
entry:
  %mul = shl nsw i32 %a, 1
  %add = add nsw i32 %mul, %b
  ret i32 %add
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local spir_kernel void @_ZTS8VecScale(ptr addrspace(1) noundef writeonly captures(none) %args, ptr addrspace(1) noundef readonly captures(none) %args1, ptr addrspace(1) noundef %args3) local_unnamed_addr #1 {
entry:
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #4
  %0 = addrspacecast ptr addrspace(1) %args3 to ptr addrspace(4)
  %call2.i = tail call spir_func noundef i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) noundef addrspacecast (ptr addrspace(1) @__usn_str to ptr addrspace(4)), ptr addrspace(4) noundef addrspacecast (ptr addrspace(1) @_ZL5scale to ptr addrspace(4)), ptr addrspace(4) noundef %0) #4
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args1, i64 %call.i.i
  %1 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !1
  %mul.i = mul nsw i32 %1, %call2.i
  %arrayidx3.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  store i32 %mul.i, ptr addrspace(1) %arrayidx3.i, align 4, !tbaa !1
  ret void
}

; Function Attrs: convergent nounwind
declare spir_func i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare spir_func noundef i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) noundef, ptr addrspace(4) noundef, ptr addrspace(4) noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local spir_kernel void @_ZTS6VecAdd(ptr addrspace(1) noundef writeonly captures(none) %args, ptr addrspace(1) noundef readonly captures(none) %args1, ptr addrspace(1) noundef readonly captures(none) %args3) local_unnamed_addr #1 {
entry:
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #4
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args1, i64 %call.i.i
  %0 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !1
  %arrayidx2.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args3, i64 %call.i.i
  %1 = load i32, ptr addrspace(1) %arrayidx2.i, align 4, !tbaa !1
  %mul.i.i = shl nsw i32 %0, 1
  %add.i.i = add nsw i32 %mul.i.i, %1
  %call4.i = tail call spir_func noundef i32 @_Z8clamp_toiii(i32 noundef %add.i.i, i32 noundef 0, i32 noundef 100) #4
  %arrayidx5.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  store i32 %call4.i, ptr addrspace(1) %arrayidx5.i, align 4, !tbaa !1
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define dso_local spir_func noundef i32 @_Z8clamp_toiii(i32 noundef %v, i32 noundef %lo, i32 noundef %hi) local_unnamed_addr #0 {
entry:
  %cmp = icmp slt i32 %v, %lo
  %cond = tail call i32 @llvm.smin.i32(i32 %v, i32 %hi)
  %cond5 = select i1 %cmp, i32 %lo, i32 %cond
  ret i32 %cond5
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smin.i32(i32, i32) #3

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local spir_kernel void @_ZTS9Threshold(ptr addrspace(1) noundef captures(none) %args, i32 noundef %args1) local_unnamed_addr #1 {
entry:
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #4
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  %0 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !1
  %cmp.not.i = icmp slt i32 %0, %args1
  br i1 %cmp.not.i, label %_ZNK9ThresholdclEPU3AS1ii.exit, label %cond.true.i

cond.true.i:                                      ; preds = %entry
  %call3.i = tail call spir_func noundef i32 @_Z7combineii(i32 noundef %0, i32 noundef %args1) #4
  br label %_ZNK9ThresholdclEPU3AS1ii.exit

_ZNK9ThresholdclEPU3AS1ii.exit:                   ; preds = %cond.true.i, %entry
  %cond.i = phi i32 [ %call3.i, %cond.true.i ], [ 0, %entry ]
  store i32 %cond.i, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !1
  ret void
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local spir_kernel void @_ZTS5Clamp(ptr addrspace(1) noundef captures(address) %args, i32 noundef %args1, i32 noundef %args3) local_unnamed_addr #1 {
entry:
  %cmp.i = icmp eq ptr addrspace(1) %args, addrspacecast (ptr addrspace(4) null to ptr addrspace(1))
  br i1 %cmp.i, label %_ZNK5ClampclEPU3AS1iii.exit, label %if.end.i

if.end.i:                                         ; preds = %entry
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #4
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  %0 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !1
  %cmp.i.i = icmp slt i32 %0, %args1
  %cond.i.i = tail call i32 @llvm.smin.i32(i32 %0, i32 %args3)
  %cond5.i.i = select i1 %cmp.i.i, i32 %args1, i32 %cond.i.i
  store i32 %cond5.i.i, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !1
  br label %_ZNK5ClampclEPU3AS1iii.exit

_ZNK5ClampclEPU3AS1iii.exit:                      ; preds = %if.end.i, %entry
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress norecurse nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }

!llvm.ident = !{!0}
!llvm.errno.tbaa = !{!1}
!llvm.module.flags = !{!5}

!0 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!1 = !{!2, !2, i64 0}
!2 = !{!"int", !3, i64 0}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C++ TBAA"}
!5 = !{i32 1, !"wchar_size", i32 4}
