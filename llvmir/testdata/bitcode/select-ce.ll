; A select constant expression, which LLVM 15 reads and LLVM 17 and newer
; do not: what the bitcode writer writes for LLVM 15, checked by
; TestBitcodeWriterOracle.
@g = global i32 0
@h = global i32 1
@a = global [2 x i32] zeroinitializer
@s = global ptr select (i1 icmp eq (ptr @g, ptr @h), ptr @g, ptr @h)
@t = global i64 select (i1 icmp ult (ptr getelementptr (i32, ptr @g, i64 1), ptr @a), i64 1, i64 2)
@u = global <2 x i32> select (<2 x i1> <i1 true, i1 icmp eq (ptr @g, ptr @a)>, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 3, i32 4>)

define i64 @f() {
  ret i64 select (i1 icmp ugt (ptr @g, ptr @a), i64 ptrtoint (ptr @g to i64), i64 ptrtoint (ptr @h to i64))
}
