cd examples/upstream
mkdir -p out/per_source
sycbuild sycl-module-id -o out/per_source/linked.0.ll tu/vector_ops.ll
sycbuild sycl-module-id -o out/per_source/linked.1.ll tu/image_ops.ll
llvm-link-22 -S -o out/per_source/linked.ll out/per_source/linked.0.ll out/per_source/linked.1.ll
mkdir -p out/per_source/llvm_ir
sycbuild sycl-post-link -device-globals -properties -spec-const=native -split=source -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols -emit-imported-symbols -split-esimd -o out/per_source/llvm_ir/module.table out/per_source/linked.ll
mkdir -p out/per_source/spir64
sycbuild file-table-tform --extract=Code --drop_titles -o out/per_source/spir64/code.list out/per_source/llvm_ir/module.table
sycbuild llvm-foreach --in-file-list=out/per_source/spir64/code.list --in-replace=module.bc --out-replace=module.spv --out-dir=out/per_source/spir64 --out-ext=spv --out-file-list=out/per_source/spir64/spv.list --deterministic -- llc-22 -mtriple=spirv64v1.3-unknown-unknown -filetype=obj --spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max,+SPV_KHR_no_integer_wrap_decoration,+SPV_KHR_float_controls,+SPV_KHR_expect_assume,+SPV_KHR_linkonce_odr,+SPV_INTEL_subgroups,+SPV_INTEL_media_block_io,+SPV_INTEL_function_pointers,+SPV_INTEL_kernel_attributes,+SPV_INTEL_inline_assembly,+SPV_INTEL_float_controls2,+SPV_INTEL_variable_length_array,+SPV_INTEL_bfloat16_conversion,+SPV_INTEL_joint_matrix,+SPV_KHR_uniform_group_instructions module.bc -o module.spv
sycbuild llvm-foreach --in-file-list=out/per_source/spir64/spv.list --in-replace=module.spv -- spirv-val module.spv
sycbuild file-table-tform --replace=Code,Code -o out/per_source/spir64/images.table out/per_source/llvm_ir/module.table out/per_source/spir64/spv.list
mkdir -p out/per_source/spir64_gen
sycbuild sycl-post-link -device-globals -properties -spec-const=emulation -split=source -emit-only-kernels-as-entry-points -emit-param-info -symbols -emit-exported-symbols -emit-imported-symbols -split-esimd -o out/per_source/spir64_gen/module.table out/per_source/linked.ll
sycbuild file-table-tform --extract=Code --drop_titles -o out/per_source/spir64_gen/code.list out/per_source/spir64_gen/module.table
sycbuild llvm-foreach --in-file-list=out/per_source/spir64_gen/code.list --in-replace=module.bc --out-replace=module.spv --out-dir=out/per_source/spir64_gen --out-ext=spv --out-file-list=out/per_source/spir64_gen/spv.list --deterministic -- llc-22 -mtriple=spirv64v1.3-unknown-unknown -filetype=obj --spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max,+SPV_KHR_no_integer_wrap_decoration,+SPV_KHR_float_controls,+SPV_KHR_expect_assume,+SPV_KHR_linkonce_odr,+SPV_INTEL_subgroups,+SPV_INTEL_media_block_io,+SPV_INTEL_function_pointers,+SPV_INTEL_kernel_attributes,+SPV_INTEL_inline_assembly,+SPV_INTEL_float_controls2,+SPV_INTEL_variable_length_array,+SPV_INTEL_bfloat16_conversion,+SPV_INTEL_joint_matrix,+SPV_KHR_uniform_group_instructions module.bc -o module.spv
sycbuild llvm-foreach --in-file-list=out/per_source/spir64_gen/spv.list --in-replace=module.spv -- spirv-val module.spv
sycbuild llvm-foreach --in-file-list=out/per_source/spir64_gen/spv.list --in-replace=module.spv --out-replace=module.bin --out-dir=out/per_source/spir64_gen --out-ext=bin --out-file-list=out/per_source/spir64_gen/bin.list --deterministic -- ocloc compile -file module.spv -spirv_input -device pvc -output module.bin -output_no_suffix
sycbuild file-table-tform --replace=Code,Code -o out/per_source/spir64_gen/images.table out/per_source/spir64_gen/module.table out/per_source/spir64_gen/bin.list
sycbuild clang-offload-wrapper -o out/per_source/device_images.o --output-format=elf -host=x86_64-unknown-linux-gnu -batch -kind=sycl -target=llvm_spir64 -format=none out/per_source/llvm_ir/module.table -target=spir64 -format=spirv out/per_source/spir64/images.table -target=spir64_gen -format=native out/per_source/spir64_gen/images.table
