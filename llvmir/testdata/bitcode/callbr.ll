; callbr (asm goto) with indirect destinations, arguments, attributes and
; an operand bundle: what the bitcode writer writes, checked by
; TestBitcodeWriterOracle.
target triple = "x86_64-unknown-linux-gnu"

define i32 @f(i32 %x) {
entry:
  %r = callbr i32 asm "jmp ${1:l}", "=r,!i,r"(i32 %x) #0
          to label %normal [label %fail]

normal:
  ret i32 %r

fail:
  ret i32 -1
}

define void @g(ptr %p) {
entry:
  callbr void asm sideeffect "", "r,!i,!i,~{dirflag}"(ptr %p) [ "x"(i32 1) ]
          to label %a [label %b, label %c]

a:
  ret void

b:
  br label %a

c:
  callbr void asm "", "!i"() to label %a [label %b]
}

attributes #0 = { nounwind }
