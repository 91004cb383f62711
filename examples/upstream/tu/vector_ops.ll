; ModuleID = 'src/vector_ops.cpp'
source_filename = "src/vector_ops.cpp"
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
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #3
  %0 = addrspacecast ptr addrspace(1) %args3 to ptr addrspace(4)
  %call2.i = tail call spir_func noundef i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) noundef addrspacecast (ptr addrspace(1) @__usn_str to ptr addrspace(4)), ptr addrspace(4) noundef addrspacecast (ptr addrspace(1) @_ZL5scale to ptr addrspace(4)), ptr addrspace(4) noundef %0) #3
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args1, i64 %call.i.i
  %1 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !2
  %mul.i = mul nsw i32 %1, %call2.i
  %arrayidx3.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  store i32 %mul.i, ptr addrspace(1) %arrayidx3.i, align 4, !tbaa !2
  ret void
}

; Function Attrs: convergent nounwind
declare spir_func noundef i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr addrspace(4) noundef, ptr addrspace(4) noundef, ptr addrspace(4) noundef) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare spir_func i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local spir_kernel void @_ZTS6VecAdd(ptr addrspace(1) noundef writeonly captures(none) %args, ptr addrspace(1) noundef readonly captures(none) %args1, ptr addrspace(1) noundef readonly captures(none) %args3) local_unnamed_addr #1 {
entry:
  %call.i.i = tail call spir_func noundef i64 @__spirv_BuiltInGlobalInvocationId(i32 noundef 0) #3
  %arrayidx.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args1, i64 %call.i.i
  %0 = load i32, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !2
  %arrayidx2.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args3, i64 %call.i.i
  %1 = load i32, ptr addrspace(1) %arrayidx2.i, align 4, !tbaa !2
  %mul.i.i = shl nsw i32 %0, 1
  %add.i.i = add nsw i32 %mul.i.i, %1
  %call4.i = tail call spir_func noundef i32 @_Z8clamp_toiii(i32 noundef %add.i.i, i32 noundef 0, i32 noundef 100) #3
  %arrayidx5.i = getelementptr inbounds nuw i32, ptr addrspace(1) %args, i64 %call.i.i
  store i32 %call4.i, ptr addrspace(1) %arrayidx5.i, align 4, !tbaa !2
  ret void
}

; Function Attrs: convergent nounwind
declare spir_func noundef i32 @_Z8clamp_toiii(i32 noundef, i32 noundef, i32 noundef) local_unnamed_addr #2

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress norecurse nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind }

!llvm.module.flags = !{!0}
!llvm.ident = !{!1}
!llvm.errno.tbaa = !{!2}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!2 = !{!3, !3, i64 0}
!3 = !{!"int", !4, i64 0}
!4 = !{!"omnipotent char", !5, i64 0}
!5 = !{!"Simple C++ TBAA"}
