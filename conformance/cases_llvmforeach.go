package conformance

// The peer's llvm-foreach tests (llvm/test/tools/llvm-foreach).
func init() {
	Register(
		Case{File: "llvm-foreach/llvm-foreach-lin.ll"},
		// The RUN lines write a shell script that runs llvm-foreach and
		// records its exit code; the .c file is only a carrier, nothing is
		// compiled.
		Case{File: "llvm-foreach/retain-return-val.c"},
		Case{File: "llvm-foreach/llvm-foreach-win.ll",
			Skip: "Windows only (REQUIRES: system-windows; copies with xcopy); llvm-foreach-lin.ll is its Linux twin"},
	)
}
