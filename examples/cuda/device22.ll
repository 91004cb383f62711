; ModuleID = 'llvm-link'
source_filename = "llvm-link"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.specialization_id = type { i32 }
%struct.specialization_id.0 = type { %struct.Pair }
%struct.Pair = type { i32, i8 }
%struct.specialization_id.1 = type { %struct.Coeffs }
%struct.Coeffs = type { float, double, %struct.Pair }
%struct.specialization_id.0.3 = type { i8 }

@.str = private unnamed_addr constant [8 x i8] c"uid_int\00", align 1
@_ZL6sc_int = internal addrspace(4) constant %struct.specialization_id { i32 7 }, align 4
@.str1 = private unnamed_addr constant [9 x i8] c"uid_pair\00", align 1
@_ZL7sc_pair = internal addrspace(4) constant %struct.specialization_id.0 { %struct.Pair { i32 -3, i8 120 } }, align 4
@.str2 = private unnamed_addr constant [11 x i8] c"uid_coeffs\00", align 1
@_ZL9sc_coeffs = internal addrspace(4) constant %struct.specialization_id.1 { %struct.Coeffs { float 1.500000e+00, double 2.500000e-01, %struct.Pair { i32 4, i8 121 } } }, align 8
@.str13 = private unnamed_addr constant [9 x i8] c"uid_flag\00", align 1
@_ZL7sc_flag = internal addrspace(4) constant %struct.specialization_id.0.3 { i8 1 }, align 1

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(none)
define dso_local noundef range(i32 -2147483647, -2147483648) i32 @_Z6helperi(i32 noundef %0) local_unnamed_addr #0 {
  %2 = shl nsw i32 %0, 1
  %3 = or disjoint i32 %2, 1
  ret i32 %3
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z8k_scalarPiPKc(ptr noundef writeonly captures(none) %0, ptr noundef %1) local_unnamed_addr #1 {
  %3 = tail call noundef i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr noundef nonnull @.str, ptr noundef addrspacecast (ptr addrspace(4) @_ZL6sc_int to ptr), ptr noundef %1) #4
  %4 = tail call noundef i32 @_Z6helperi(i32 noundef %3) #5
  %5 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = zext nneg i32 %5 to i64
  %7 = getelementptr inbounds nuw i32, ptr %0, i64 %6
  store i32 %4, ptr %7, align 4, !tbaa !1
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local noundef i32 @_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_(ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z6k_pairPiPKc(ptr noundef writeonly captures(none) initializes((0, 12)) %0, ptr noundef %1) local_unnamed_addr #1 {
  %3 = tail call %struct.Pair @_Z40__sycl_getComposite2020SpecConstantValueI4PairET_PKcPKvS5_(ptr noundef nonnull @.str1, ptr noundef addrspacecast (ptr addrspace(4) @_ZL7sc_pair to ptr), ptr noundef %1) #4
  %4 = extractvalue %struct.Pair %3, 0
  %5 = extractvalue %struct.Pair %3, 1
  store i32 %4, ptr %0, align 4, !tbaa !1
  %6 = sext i8 %5 to i32
  %7 = getelementptr inbounds nuw i8, ptr %0, i64 4
  store i32 %6, ptr %7, align 4, !tbaa !1
  %8 = tail call noundef i32 @_Z6helperi(i32 noundef %4) #5
  %9 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store i32 %8, ptr %9, align 4, !tbaa !1
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local %struct.Pair @_Z40__sycl_getComposite2020SpecConstantValueI4PairET_PKcPKvS5_(ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z8k_coeffsPdPKc(ptr noundef writeonly captures(none) initializes((0, 40)) %0, ptr noundef %1) local_unnamed_addr #1 {
  %3 = tail call %struct.Coeffs @_Z40__sycl_getComposite2020SpecConstantValueI6CoeffsET_PKcPKvS5_(ptr noundef nonnull @.str2, ptr noundef addrspacecast (ptr addrspace(4) @_ZL9sc_coeffs to ptr), ptr noundef %1) #4
  %4 = extractvalue %struct.Coeffs %3, 0
  %5 = extractvalue %struct.Coeffs %3, 1
  %6 = extractvalue %struct.Coeffs %3, 2
  %7 = extractvalue %struct.Pair %6, 0
  %8 = extractvalue %struct.Pair %6, 1
  %9 = tail call noundef zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr noundef nonnull @.str13, ptr noundef addrspacecast (ptr addrspace(4) @_ZL7sc_flag to ptr), ptr noundef %1) #4
  %10 = fpext contract float %4 to double
  store double %10, ptr %0, align 8, !tbaa !8
  %11 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store double %5, ptr %11, align 8, !tbaa !8
  %12 = sitofp i32 %7 to double
  %13 = getelementptr inbounds nuw i8, ptr %0, i64 16
  store double %12, ptr %13, align 8, !tbaa !8
  %14 = sitofp i8 %8 to double
  %15 = getelementptr inbounds nuw i8, ptr %0, i64 24
  store double %14, ptr %15, align 8, !tbaa !8
  %16 = select contract i1 %9, double 1.000000e+00, double 0.000000e+00
  %17 = getelementptr inbounds nuw i8, ptr %0, i64 32
  store double %16, ptr %17, align 8, !tbaa !8
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local %struct.Coeffs @_Z40__sycl_getComposite2020SpecConstantValueI6CoeffsET_PKcPKvS5_(ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare dso_local noundef zeroext i1 @_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_(ptr noundef, ptr noundef, ptr noundef) local_unnamed_addr #2

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx42,+ptx80,+sm_90" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx42,+ptx80,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx42,+ptx80,+sm_90" }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }
attributes #5 = { nounwind }

!llvm.ident = !{!0}
!llvm.errno.tbaa = !{!1}
!llvm.module.flags = !{!5, !6, !7}

!0 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!1 = !{!2, !2, i64 0}
!2 = !{!"int", !3, i64 0}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C++ TBAA"}
!5 = !{i32 1, !"wchar_size", i32 4}
!6 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!7 = !{i32 7, !"frame-pointer", i32 2}
!8 = !{!9, !9, i64 0}
!9 = !{!"double", !3, i64 0}
