"""sycl_device_link: link SYCL device code with sycbuild.

    load("//rules:sycl.bzl", "sycl_device_link")

    sycl_device_link(
        name = "device",
        srcs = ["device/kernels.ll"],   # device IR (.ll/.bc), one per translation unit
        config = "targets.yaml",        # the targets, tools and options
        split = "per_kernel",           # optional: overrides the config's split
        targets = ["llvm_ir"],          # optional: only these of the config's targets
    )

builds device.o, the host object holding every device image, to link into
the program. The output group "sycbuild_files" is sycbuild's build directory
(device.sycbuild/): the post-linked modules, their file tables and the
images.

sycbuild runs as one action with --no-cache: Bazel caches it, so sycbuild
keeps no cache of its own and writes nothing but the declared outputs, and
the inputs, output and build directory are passed on its command line, so
the config's own paths do not matter here. Its outputs hold no absolute
path, so they are the same in every output base.
"""

def _sycl_device_link_impl(ctx):
    obj = ctx.actions.declare_file(ctx.label.name + ".o")
    build_dir = ctx.actions.declare_directory(ctx.label.name + ".sycbuild")

    args = ctx.actions.args()
    args.add("-config", ctx.file.config)
    args.add("-o", obj)
    args.add("-build-dir", build_dir.path)
    args.add("--no-cache")
    if ctx.attr.split:
        args.add("-split", ctx.attr.split)
    if ctx.attr.targets:
        args.add_joined("-targets", ctx.attr.targets, join_with = ",")
    args.add_all(ctx.files.srcs)

    ctx.actions.run(
        executable = ctx.executable.sycbuild,
        arguments = [args],
        inputs = ctx.files.srcs + [ctx.file.config],
        outputs = [obj, build_dir],
        mnemonic = "SyclDeviceLink",
        progress_message = "Linking SYCL device code %s" % ctx.label,
        # The external compilers (llvm-spirv-15, ocloc, …) are found on PATH.
        use_default_shell_env = True,
    )
    return [
        DefaultInfo(files = depset([obj])),
        OutputGroupInfo(sycbuild_files = depset([build_dir])),
    ]

sycl_device_link = rule(
    implementation = _sycl_device_link_impl,
    doc = "Links SYCL device IR into a host object with sycbuild.",
    attrs = {
        "srcs": attr.label_list(
            allow_files = [".ll", ".bc"],
            mandatory = True,
            doc = "Device IR: they replace the config's inputs.",
        ),
        "config": attr.label(
            allow_single_file = [".yaml", ".yml"],
            mandatory = True,
            doc = "The targets.yaml: targets, tools and options.",
        ),
        "split": attr.string(
            values = ["", "off", "per_source", "per_kernel", "auto"],
            doc = "Overrides the config's split mode.",
        ),
        "targets": attr.string_list(
            doc = "Builds only these of the config's targets (by name).",
        ),
        "sycbuild": attr.label(
            default = "//tools:sycbuild",
            executable = True,
            allow_single_file = True,
            cfg = "exec",
            doc = "The sycbuild executable.",
        ),
    },
)
