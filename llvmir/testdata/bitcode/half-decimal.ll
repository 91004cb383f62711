; Half and bfloat constants written in decimal or as a double's bits, which
; LLVM converts when exact: what the bitcode writer writes, checked by
; TestBitcodeWriterOracle.
@h1 = global half 1.0
@h2 = global half -2.5
@h3 = global half 0x3FF0000000000000
@h4 = global half 6.103515625E-5
@h5 = global half 5.9604644775390625E-8
@h6 = global half 65504.0
@b1 = global bfloat 1.0
@b2 = global bfloat -3.0
@z3 = global half -0.0
