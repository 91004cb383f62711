; Debug-info flags spelled as combinations or added lately: what the bitcode
; writer writes, checked by TestBitcodeWriterOracle.
!named = !{!0}
!0 = !DIBasicType(name: "a", flags: DIFlagIndirectVirtualBase)
