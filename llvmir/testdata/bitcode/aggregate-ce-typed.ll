; extractvalue and insertvalue constant expressions, which only LLVM 14 reads
; (typed pointers), folded as LLVM folds them: checked by
; TestBitcodeWriterOracle.
@g = global i32 0
@y = global i32 extractvalue ({i32, i32} {i32 ptrtoint (i32* @g to i32), i32 3}, 0)
@z = global {i32, [2 x i8]} insertvalue ({i32, [2 x i8]} {i32 ptrtoint (i32* @g to i32), [2 x i8] c"a\00"}, i8 ptrtoint (i32* @g to i8), 1, 1)
@w = global i8 extractvalue ([2 x i8] c"ab", 1)
@u = global i32 extractvalue ({i32, i32} undef, 1)
define i32 @f() {
  ret i32 extractvalue ([2 x i32] [i32 ptrtoint (i32* @g to i32), i32 4], 1)
}
