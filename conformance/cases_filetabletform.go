package conformance

// The peer's file-table-tform tests (llvm/test/tools/file-table-tform).
func init() {
	Register(
		Case{File: "file-table-tform/file-table-tform.test"},
		Case{File: "file-table-tform/file-table-tform-single.test"},
		Case{File: "file-table-tform/file-table-tform-stdout.test"},
		Case{File: "file-table-tform/file-table-tform-merge.test", Adapts: []Adapt{
			RewriteRun(`sh -c "cp`, `sh -c`, `bash -c`,
				"the test copies a{0,1}.txt through sh, which needs brace expansion; /bin/sh is dash on Debian, which has none"),
		}},
	)
}
