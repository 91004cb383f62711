; Vector constant expressions (insertelement, shufflevector, extractelement)
; in initializers and operands: what the bitcode writer writes, checked by
; TestBitcodeWriterOracle. LLVM folds what it can when it reads them.
@g = global i32 0
@h = global i32 1
@v = global <2 x i64> insertelement (<2 x i64> zeroinitializer, i64 ptrtoint (ptr @g to i64), i32 1)
@w = global <4 x i64> shufflevector (<2 x i64> <i64 ptrtoint (ptr @g to i64), i64 1>, <2 x i64> zeroinitializer, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>)
@x = global <2 x i64> shufflevector (<2 x i64> <i64 ptrtoint (ptr @h to i64), i64 1>, <2 x i64> <i64 2, i64 ptrtoint (ptr @g to i64)>, <2 x i32> <i32 3, i32 0>)
@y = global i64 extractelement (<2 x i64> <i64 ptrtoint (ptr @g to i64), i64 5>, i32 0)
@z = global <2 x ptr> insertelement (<2 x ptr> <ptr @g, ptr null>, ptr @h, i64 ptrtoint (ptr @g to i64))

define <2 x i64> @f() {
  ret <2 x i64> insertelement (<2 x i64> <i64 7, i64 8>, i64 ptrtoint (ptr @h to i64), i32 0)
}

define <4 x ptr> @s(<2 x ptr> %p) {
  %r = shufflevector <2 x ptr> %p, <2 x ptr> <ptr @g, ptr @h>, <4 x i32> <i32 0, i32 3, i32 undef, i32 1>
  ret <4 x ptr> %r
}
