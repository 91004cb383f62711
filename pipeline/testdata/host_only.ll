; A translation unit with no device code: no kernel and no SYCL_EXTERNAL
; function (what most CPU-only files of an application give the device
; compiler). sycbuild leaves it out of the link.
source_filename = "host_only.cpp"
target triple = "spir64-unknown-unknown"

define internal spir_func void @unused() {
entry:
  ret void
}

declare spir_func void @_Z7combineii(i32, i32)
