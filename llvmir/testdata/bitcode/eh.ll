; Exception-handling pads, funclet bundles and a use-list order: what the
; bitcode writer writes, checked by TestBitcodeWriterOracle.
target triple = "x86_64-pc-windows-msvc"

declare void @f()
declare i32 @__CxxFrameHandler3(...)

define void @g() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @f() to label %ok unwind label %sw
ok:
  ret void
sw:
  %cs = catchswitch within none [label %h] unwind label %cl
h:
  %c = catchpad within %cs [ptr null, i32 64, ptr null]
  catchret from %c to label %ok
cl:
  %p = cleanuppad within none []
  call void @f() [ "funclet"(token %p) ]
  cleanupret from %p unwind to caller
}

define void @u(i32 %a, i32 %b) {
  %x = add i32 %a, %b
  %y = add i32 %a, 1
  ret void
  uselistorder i32 %a, { 1, 0 }
}
