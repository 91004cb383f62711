// Package tools holds sycbuild's adapters for the external tools of the
// device-link stage (llvm-link, llvm-spirv, spirv-val,
// ocloc, llc, ptxas, fatbinary, ld.lld, clang-offload-bundler): finding
// them (the config's explicit path, then PATH, including LLVM's versioned
// names such as llvm-spirv-15 and llc-19), capturing their versions for
// the action cache, building their command lines with the options the
// DPC++ driver uses, and saying how to install what is missing. It also
// inspects device IR inputs (which LLVM can read them, whether they hold
// device code) without running LLVM.
//
// The in-process tools (sycl-post-link, file-table-tform, llvm-foreach,
// clang-offload-wrapper, sycl-module-id, clang-sycl-linker) live in the
// subpackages of this directory.
package toolchain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
)

// Tool is an external tool found for a role.
type Tool struct {
	Role configs.Tool // configs.ToolLLVMSPIRV
	// Path is how commands name it: the name found on PATH
	// ("llvm-spirv-15"), or the configured or discovered path.
	Path    string
	Version string // its version text, for the action cache
}

// role says how to find one tool.
type role struct {
	// llvm: an LLVM tool, installed as <name>-<major> (Debian) and
	// sometimes as plain <name>, which is accepted only when its
	// --version reports the wanted major version.
	llvm bool
	// pkg is the Debian package providing it ("%d": the LLVM version).
	pkg string
	// hint replaces "install the Debian package …" when Debian has none.
	hint string
	// cuda: also searched in the CUDA toolkit's bin directories
	// ($CUDA_PATH/bin, /usr/local/cuda/bin) after PATH.
	cuda bool
}

var roles = map[configs.Tool]role{
	configs.ToolLLVMLink:  {llvm: true, pkg: "llvm-%d"},
	configs.ToolLLVMAs:    {llvm: true, pkg: "llvm-%d"},
	configs.ToolLLVMSPIRV: {llvm: true, pkg: "llvm-spirv-%d"},
	configs.ToolLLC:       {llvm: true, pkg: "llvm-%d"},
	configs.ToolSPIRVVal:  {pkg: "spirv-tools"},
	configs.ToolOcloc:     {pkg: "intel-opencl-icd"},
	configs.ToolPtxas:     {hint: "install NVIDIA's CUDA toolkit (Debian: nvidia-cuda-toolkit, in non-free), or name it under tools:", cuda: true},
	configs.ToolFatbinary: {hint: "install NVIDIA's CUDA toolkit (Debian: nvidia-cuda-toolkit, in non-free), or name it under tools:", cuda: true},
	configs.ToolLLD:       {llvm: true, pkg: "lld-%d"},
	configs.ToolBundler:   {llvm: true, pkg: "clang-tools-%d"},
}

func cudaDirs() []string {
	var dirs []string
	if p := os.Getenv("CUDA_PATH"); p != "" {
		dirs = append(dirs, filepath.Join(p, "bin"))
	}
	return append(dirs, "/usr/local/cuda/bin")
}

// NotFoundError says a tool is missing, what was tried, and how to get it.
type NotFoundError struct {
	Role  configs.Tool
	Tried []string // what was looked for ("llvm-spirv-15 on PATH")
	Hint  string   // "install the Debian package llvm-spirv-15"
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s was not found (looked for %s); %s", e.Role, strings.Join(e.Tried, ", "), e.Hint)
}

// Finder finds tools.
type Finder struct {
	// Configured maps roles to the executables the config names (paths
	// relative to Dir, or names to look up on PATH).
	Configured map[configs.Tool]string
	// Dir is the directory configured paths are relative to (the config's,
	// where the build runs its commands); "" is the working directory.
	// Commands name a configured tool as configured.
	Dir string
	// Versions captures and caches versions.
	Versions *VersionCache
}

// Find returns the tool for a role. llvm is the LLVM major version wanted
// for an LLVM tool (ignored for the others).
func (f *Finder) Find(role configs.Tool, llvm int) (*Tool, error) {
	r, ok := roles[role]
	name := string(role)
	if !ok {
		return nil, fmt.Errorf("unknown tool %q", name)
	}
	look := exec.LookPath
	if c := f.Configured[role]; c != "" {
		at := c
		if strings.Contains(c, "/") && f.Dir != "" && !filepath.IsAbs(c) {
			at = filepath.Join(f.Dir, c)
			if !strings.Contains(at, "/") {
				at = "./" + at // a path, not a name to look up on PATH
			}
		}
		if _, err := lookConfigured(look, at); err != nil {
			return nil, fmt.Errorf("tools.%s: %s: %w", name, c, err)
		}
		return f.tool(role, c, at)
	}
	var tried []string
	if r.llvm {
		versioned := fmt.Sprintf("%s-%d", name, llvm)
		if _, err := look(versioned); err == nil {
			return f.tool(role, versioned, versioned)
		}
		tried = append(tried, versioned+" on PATH")
		if p, err := look(name); err == nil {
			t, err := f.tool(role, name, p)
			if err == nil && llvmMajor(t.Version) == llvm {
				return t, nil
			}
			tried = append(tried, fmt.Sprintf("%s on PATH (%s is not LLVM %d)", name, p, llvm))
		} else {
			tried = append(tried, name+" on PATH")
		}
	} else {
		if _, err := look(name); err == nil {
			return f.tool(role, name, name)
		}
		tried = append(tried, name+" on PATH")
		var dirs []string
		if r.cuda {
			dirs = cudaDirs()
		}
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if isExecutable(p) {
				return f.tool(role, p, p)
			}
			tried = append(tried, p)
		}
	}
	hint := r.hint
	if hint == "" {
		pkg := r.pkg
		if strings.Contains(pkg, "%d") {
			pkg = fmt.Sprintf(pkg, llvm)
		}
		hint = "install the Debian package " + pkg
	}
	return nil, &NotFoundError{Role: role, Tried: tried, Hint: hint}
}

func (f *Finder) tool(role configs.Tool, printed, path string) (*Tool, error) {
	v, err := f.Versions.Version(role, path)
	if err != nil {
		return nil, err
	}
	return &Tool{Role: role, Path: printed, Version: v}, nil
}

// lookConfigured checks a configured executable: a path must be an
// executable file, a bare name must be on PATH.
func lookConfigured(look func(string) (string, error), c string) (string, error) {
	if !strings.Contains(c, "/") {
		return look(c)
	}
	fi, err := os.Stat(c)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errors.New("no such file")
	case err != nil:
		return "", err
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		return "", errors.New("not an executable file")
	}
	return c, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// LLVM is the LLVM major version the tool's version text reports, 0 when
// it names none (a tool that is not LLVM's).
func (t *Tool) LLVM() int { return llvmMajor(t.Version) }
