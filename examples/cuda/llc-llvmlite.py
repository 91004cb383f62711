#!/usr/bin/env python3
"""An `llc` for NVPTX built on llvmlite's LLVM, for machines that have CUDA and
Python's llvmlite but no LLVM command-line tools. It takes the subset of llc's
command line that sycbuild's nvptx64 target uses:

    llc-llvmlite.py -march=nvptx64 -mcpu=sm_90 [-mattr=+ptxNN] [-O0..3] in.ll -o out.ptx
    llc-llvmlite.py --version
"""
import sys


def main(argv):
    import llvmlite
    import llvmlite.binding as llvm

    if "--version" in argv or "-version" in argv:
        print("LLVM (llvmlite %s) version %s" % (llvmlite.__version__, ".".join(map(str, llvm.llvm_version_info))))
        return 0
    triple, cpu, features, opt, out, inputs = "nvptx64-nvidia-cuda", "", "", 2, None, []
    it = iter(argv)
    for a in it:
        if a.startswith("-march="):
            arch = a.split("=", 1)[1]
            triple = {"nvptx64": "nvptx64-nvidia-cuda", "nvptx": "nvptx-nvidia-cuda"}.get(arch, arch)
        elif a.startswith("-mtriple="):
            triple = a.split("=", 1)[1]
        elif a.startswith("-mcpu="):
            cpu = a.split("=", 1)[1]
        elif a.startswith("-mattr="):
            features = a.split("=", 1)[1]
        elif a in ("-O0", "-O1", "-O2", "-O3"):
            opt = int(a[2])
        elif a == "-o":
            out = next(it, None)
        elif a.startswith("-o="):
            out = a[3:]
        elif a.startswith("-"):
            print("llc-llvmlite: unsupported option %s" % a, file=sys.stderr)
            return 1
        else:
            inputs.append(a)
    if len(inputs) != 1 or not out:
        print("llc-llvmlite: usage: llc-llvmlite.py [options] in.ll -o out.ptx", file=sys.stderr)
        return 1
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    with open(inputs[0]) as f:
        text = f.read()
    try:
        mod = llvm.parse_assembly(text)
        mod.verify()
    except RuntimeError as e:
        print("llc-llvmlite: %s: %s" % (inputs[0], e), file=sys.stderr)
        return 1
    tm = llvm.Target.from_triple(triple).create_target_machine(cpu=cpu, features=features, opt=opt)
    asm = tm.emit_assembly(mod)
    with open(out, "w") as f:
        f.write(asm)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
