; ModuleID = 'src/amd_ops.cpp'
source_filename = "src/amd_ops.cpp"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.specialization_id = type { float }

@__usn_str = private unnamed_addr addrspace(1) constant [28 x i8] c"_ZTSK17specialization_idIfE\00", align 1
@_ZL6factor = internal addrspace(1) constant %struct.specialization_id { float 2.000000e+00 }, align 4

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define dso_local noundef float @_Z4fma_fff(float noundef %a, float noundef %x, float noundef %y) local_unnamed_addr #0 {
entry:
  %mul = fmul float %a, %x
  %add = fadd float %mul, %y
  ret float %add
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local amdgpu_kernel void @_ZTS5Scale(ptr addrspace(1) noundef writeonly captures(none) %args, ptr addrspace(1) noundef readonly captures(none) %args1, ptr addrspace(1) noundef %args3) local_unnamed_addr #1 {
entry:
  %0 = tail call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = tail call align 8 dereferenceable(256) ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %2 = getelementptr inbounds nuw i8, ptr addrspace(4) %1, i64 12
  %3 = load i16, ptr addrspace(4) %2, align 4, !range !7, !invariant.load !8, !noundef !8
  %conv.i.i = zext nneg i16 %3 to i32
  %mul.i.i = mul i32 %0, %conv.i.i
  %4 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %add.i.i = add i32 %mul.i.i, %4
  %conv1.i.i = zext i32 %add.i.i to i64
  %5 = addrspacecast ptr addrspace(1) %args3 to ptr
  %call2.i = tail call noundef float @_Z37__sycl_getScalar2020SpecConstantValueIfET_PKcPKvS4_(ptr noundef addrspacecast (ptr addrspace(1) @__usn_str to ptr), ptr noundef addrspacecast (ptr addrspace(1) @_ZL6factor to ptr), ptr noundef %5) #5
  %arrayidx.i = getelementptr inbounds nuw float, ptr addrspace(1) %args1, i64 %conv1.i.i
  %6 = load float, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !9
  %mul.i = fmul float %call2.i, %6
  %arrayidx3.i = getelementptr inbounds nuw float, ptr addrspace(1) %args, i64 %conv1.i.i
  store float %mul.i, ptr addrspace(1) %arrayidx3.i, align 4, !tbaa !9
  ret void
}

; Function Attrs: convergent nounwind
declare noundef float @_Z37__sycl_getScalar2020SpecConstantValueIfET_PKcPKvS4_(ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.amdgcn.workgroup.id.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef align 4 ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #3

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local amdgpu_kernel void @_ZTS5Saxpy(ptr addrspace(1) noundef captures(none) %args, ptr addrspace(1) noundef readonly captures(none) %args1, float noundef %args3) local_unnamed_addr #4 {
entry:
  %0 = tail call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = tail call align 8 dereferenceable(256) ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %2 = getelementptr inbounds nuw i8, ptr addrspace(4) %1, i64 12
  %3 = load i16, ptr addrspace(4) %2, align 4, !range !7, !invariant.load !8, !noundef !8
  %conv.i.i = zext nneg i16 %3 to i32
  %mul.i.i = mul i32 %0, %conv.i.i
  %4 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %add.i.i = add i32 %mul.i.i, %4
  %conv1.i.i = zext i32 %add.i.i to i64
  %arrayidx.i = getelementptr inbounds nuw float, ptr addrspace(1) %args1, i64 %conv1.i.i
  %5 = load float, ptr addrspace(1) %arrayidx.i, align 4, !tbaa !9, !amdgpu.noclobber !8
  %arrayidx2.i = getelementptr inbounds nuw float, ptr addrspace(1) %args, i64 %conv1.i.i
  %6 = load float, ptr addrspace(1) %arrayidx2.i, align 4, !tbaa !9, !amdgpu.noclobber !8
  %mul.i8.i = fmul float %args3, %5
  %add.i9.i = fadd float %mul.i8.i, %6
  store float %add.i9.i, ptr addrspace(1) %arrayidx2.i, align 4, !tbaa !9
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #1 = { convergent mustprogress norecurse nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #2 = { convergent nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #5 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}
!llvm.errno.tbaa = !{!3}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 600}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!3 = !{!4, !4, i64 0}
!4 = !{!"int", !5, i64 0}
!5 = !{!"omnipotent char", !6, i64 0}
!6 = !{!"Simple C++ TBAA"}
!7 = !{i16 1, i16 1025}
!8 = !{}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !5, i64 0}
