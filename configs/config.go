// Package configs loads targets.yaml, the file that describes one sycbuild
// build: the device IR inputs, where the output object and intermediate
// files go, how to split, and the targets to build images for.
//
// Loading is strict. The YAML is parsed with goccy/go-yaml, its shape is
// checked against the schema (unknown keys, wrong types, missing required
// fields), then it is decoded with goccy's strict decoder and validated
// (enum values, per-kind fields, tool names). Every problem is reported as
// "targets.yaml:LINE:COL: message", all of them at once, sorted by position.
//
// Paths in the file are relative to the file's own directory (Config.Dir);
// Config keeps them as written (cleaned), so that a build run from that
// directory sees the same paths wherever the project is checked out.
//
// The schema is documented for users in docs/targets.md.
package configs

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Kind is a target kind: which device images a target produces.
type Kind string

// The target kinds.
const (
	// LLVMIR embeds the post-linked LLVM IR itself; it needs no external tool.
	LLVMIR Kind = "llvm_ir"
	// SPIR64 is a SPIR-V image compiled just in time by the runtime
	// (llvm-spirv), with native specialization constants.
	SPIR64 Kind = "spir64"
	// SPIR64Gen is ahead-of-time code for Intel GPUs (llvm-spirv →
	// ocloc -device …), with emulated specialization constants.
	SPIR64Gen Kind = "spir64_gen"
	// NVPTX64 is ahead-of-time code for NVIDIA GPUs (llc → ptxas →
	// fatbinary), with emulated specialization constants.
	NVPTX64 Kind = "nvptx64"
	// AMDGCN is ahead-of-time code for AMD GPUs (llc → ld.lld →
	// clang-offload-bundler, as DPC++'s HIP target), with emulated
	// specialization constants.
	AMDGCN Kind = "amdgcn"
)

// Kinds lists the target kinds in documentation order.
var Kinds = []Kind{LLVMIR, SPIR64, SPIR64Gen, NVPTX64, AMDGCN}

// Split is the device-code split mode.
type Split string

// The split modes (sycl-post-link -split=…; off passes no -split).
const (
	SplitOff       Split = "off"
	SplitPerSource Split = "per_source"
	SplitPerKernel Split = "per_kernel"
	SplitAuto      Split = "auto"
)

// Splits lists the split modes in documentation order.
var Splits = []Split{SplitOff, SplitPerSource, SplitPerKernel, SplitAuto}

// SpecConsts is how specialization constants are lowered for a target.
type SpecConsts string

// The specialization-constant modes (sycl-post-link -spec-const=…).
const (
	SpecNative    SpecConsts = "native"
	SpecEmulation SpecConsts = "emulation"
)

// Tool is a tool role: an external tool a build may need, or the
// in-process sycl-post-link, by the name the config's tools: and options:
// sections use.
type Tool string

// The tool roles.
const (
	ToolLLVMLink  Tool = "llvm-link"
	ToolLLVMAs    Tool = "llvm-as" // accepted for older configs: no build runs it (sycl-post-link writes bitcode)
	ToolLLVMSPIRV Tool = "llvm-spirv"
	ToolSPIRVVal  Tool = "spirv-val"
	ToolOcloc     Tool = "ocloc"
	ToolLLC       Tool = "llc"
	ToolPtxas     Tool = "ptxas"
	ToolFatbinary Tool = "fatbinary"
	ToolLLD       Tool = "ld.lld"
	ToolBundler   Tool = "clang-offload-bundler"
	// ToolPostLink names the in-process sycl-post-link in options: sections.
	ToolPostLink Tool = "sycl-post-link"
)

// externalTools is the fixed set of external tool roles, in documentation
// order.
var externalTools = [...]Tool{ToolLLVMLink, ToolLLVMAs, ToolLLVMSPIRV, ToolSPIRVVal, ToolOcloc, ToolLLC, ToolPtxas, ToolFatbinary, ToolLLD, ToolBundler}

// ExternalTools returns the external tool roles, in documentation order.
func ExternalTools() []Tool { return slices.Clone(externalTools[:]) }

// ParseTool returns the external tool role called name (a key of the
// config's tools: section), and whether there is one.
func ParseTool(name string) (Tool, bool) {
	t := Tool(name)
	return t, slices.Contains(externalTools[:], t)
}

// kindTools lists, per kind, the tools whose options a target may extend
// (the keys allowed in its options: mapping), in pipeline order.
var kindTools = map[Kind][]Tool{
	LLVMIR:    {ToolPostLink},
	SPIR64:    {ToolPostLink, ToolLLVMAs, ToolLLVMSPIRV, ToolLLC, ToolSPIRVVal},
	SPIR64Gen: {ToolPostLink, ToolLLVMAs, ToolLLVMSPIRV, ToolLLC, ToolSPIRVVal, ToolOcloc},
	NVPTX64:   {ToolPostLink, ToolLLC, ToolPtxas, ToolFatbinary},
	AMDGCN:    {ToolPostLink, ToolLLC, ToolLLD, ToolBundler},
}

// Defaults of optional top-level fields.
const (
	DefaultBuildDir = "out"
	DefaultOutput   = "device_images.o" // inside the build directory
	DefaultSplit    = SplitAuto
)

// Config is a loaded, validated targets.yaml.
type Config struct {
	// File is the config's path as given to Load; messages name it.
	File string `yaml:"-"`
	// Dir is the config's directory; relative paths below are relative to it.
	Dir string `yaml:"-"`

	// Inputs are the device IR files (.ll or .bc); several are linked.
	Inputs []string `yaml:"inputs" cfg:"required"`
	// Output is the host object to write (default: <build_dir>/device_images.o).
	Output string `yaml:"output"`
	// BuildDir holds intermediate files and the action cache (default: out).
	BuildDir string `yaml:"build_dir"`
	// Split is the device-code split mode (default: auto).
	Split Split `yaml:"split"`
	// Host is the host triple of the output object (default: this machine's).
	Host string `yaml:"host"`
	// Wrapper is the form of the device images in the output object:
	// dpcpp (the default: DPC++'s descriptor and bundle sections) or
	// offload-binary (LLVM's OffloadBinary containers in .llvm.offloading,
	// registered as LLVM 22's SYCL wrapper registers them).
	Wrapper WrapperFormat `yaml:"wrapper"`
	// Jobs is the number of parallel jobs (default 0: the number of CPUs);
	// the command line's -j overrides it.
	Jobs int `yaml:"jobs"`
	// Tools maps tool roles to an executable: a name looked up on PATH, or a
	// path (one with a slash), relative to Dir unless absolute.
	Tools map[Tool]string `yaml:"tools"`
	// Timeouts stop a command of a tool that runs longer, per tool role
	// ("ocloc: 10m"): it fails like any other.
	Timeouts map[Tool]string `yaml:"timeouts"`
	// Memory is the build's memory budget ("16G"; "0": none; default: the
	// memory available when the build starts); the command line's -m
	// overrides it.
	Memory string `yaml:"memory" cfg:"size"`
	// Cache settings: the shared local cache and the remote (REAPI) one
	// (docs/cache.md); the command line's flags of the same names
	// override them.
	CacheDir            string   `yaml:"cache_dir"`
	CacheMaxSize        string   `yaml:"cache_max_size" cfg:"size"`
	RemoteCache         string   `yaml:"remote_cache"`
	RemoteCacheReadOnly bool     `yaml:"remote_cache_read_only"`
	RemoteTimeout       string   `yaml:"remote_timeout"`
	RemoteHeaders       []string `yaml:"remote_headers"`
	// Executor is where the external commands run: local (the default)
	// or slurm, as job steps of a Slurm allocation; the command line's
	// -executor overrides it.
	Executor Executor `yaml:"executor"`
	// Slurm is what sycbuild asks Slurm for when it makes its own
	// allocation.
	Slurm *Slurm `yaml:"slurm"`
	// Targets are the device targets to build, in the order their images
	// appear in the output object.
	Targets []*Target `yaml:"targets" cfg:"required"`

	pos positions
	// flags maps the top-level fields the command line replaced to the
	// flag that did ("output": "-o").
	flags map[string]string
}

// Target is one entry of targets:.
type Target struct {
	// Kind is the target kind (required).
	Kind Kind `yaml:"kind" cfg:"required"`
	// Name names the target's work directory and messages (default: the
	// kind); names must be unique.
	Name string `yaml:"name"`
	// Devices are the ocloc devices of a spir64_gen target (required there).
	Devices []string `yaml:"devices"`
	// Arch is the GPU architecture of an nvptx64 target, e.g. sm_90
	// (required there).
	Arch string `yaml:"arch"`
	// SpecConstants is native or emulation (default: native for spir64 and
	// llvm_ir, emulation for the ahead-of-time kinds, which allow only it).
	SpecConstants SpecConsts `yaml:"spec_constants"`
	// Optional targets whose tools are missing are skipped with a warning
	// instead of failing the build.
	Optional bool `yaml:"optional"`
	// SPIRV is how a spir64 or spir64_gen target makes SPIR-V: with
	// llvm-spirv (translator) or LLVM's own SPIR-V backend (llvm-backend);
	// "" chooses the backend when the IR is newer than the translator
	// reads, the translator otherwise.
	SPIRV SPIRVRoute `yaml:"spirv"`
	// Options are extra command-line options per tool, appended to the ones
	// sycbuild passes; each is a list or a shell-quoted string.
	Options map[Tool]Args `yaml:"options"`
	// AOTFallback, for a spir64_gen target, is what a module whose
	// ahead-of-time compile fails becomes: "spirv" embeds the SPIR-V of
	// the kernels that fail alone for the target instead (compiled when
	// the program runs), or of the whole module when no kernel alone
	// fails, with a loud warning, and fails the build when every module
	// falls back; "spirv-all" accepts that too; "" (the default) fails the
	// build.
	AOTFallback string `yaml:"aot_fallback"`
	// Timeout stops any command of the target that runs longer (see
	// Config.Timeouts).
	Timeout string `yaml:"timeout"`

	// Index is the target's position in Config.Targets.
	Index int `yaml:"-"`
}

// Pos is a 1-based line and column in the config file.
type Pos struct{ Line, Col int }

// where says where the value at path comes from, for messages: the
// config's "file:line:col", or "command line: -o" for a value the command
// line replaced (Override).
func (c *Config) where(path string) string {
	if flag := c.flag(path); flag != "" {
		return "command line: " + flag
	}
	p := c.pos.lookup(path)
	return fmt.Sprintf("%s:%d:%d", c.File, p.Line, p.Col)
}

// flag returns the command-line flag that replaced the value at path
// ("-o"; "input" for the inputs), or "" for a value of the config file.
func (c *Config) flag(path string) string {
	top := path
	if i := strings.IndexAny(top, ".["); i >= 0 {
		top = top[:i]
	}
	flag := c.flags[top]
	if flag == "inputs" {
		return "input"
	}
	return flag
}

func (t *Target) path() string { return "targets[" + itoa(t.Index) + "]" }

// Load reads and validates the config at path.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read at most one byte more than MaxSize: a huge file is refused
	// without being read whole.
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse validates a config whose text is data; file names it in messages and
// its directory becomes Config.Dir.
func Parse(file string, data []byte) (*Config, error) {
	c := &Config{File: file, Dir: filepath.Dir(file)}
	if err := checkLimits(file, data); err != nil {
		return nil, ErrorList{err}
	}
	if errs := decode(file, data, c); len(errs) > 0 {
		return nil, sorted(errs)
	}
	c.setDefaults()
	if errs := c.validate(); len(errs) > 0 {
		return nil, sorted(errs)
	}
	return c, nil
}

func (c *Config) setDefaults() {
	if c.BuildDir == "" {
		c.BuildDir = DefaultBuildDir
	}
	c.BuildDir = filepath.Clean(c.BuildDir)
	if c.Output == "" {
		c.Output = filepath.Join(c.BuildDir, DefaultOutput)
	}
	c.Output = filepath.Clean(c.Output)
	for i, in := range c.Inputs {
		c.Inputs[i] = filepath.Clean(in)
	}
	if c.Split == "" {
		c.Split = DefaultSplit
	}
	if c.Host == "" {
		c.Host = DefaultHost()
	}
	if c.Wrapper == "" {
		c.Wrapper = WrapperDPCPP
	}
	if c.Executor == "" {
		c.Executor = ExecutorLocal
	}
	for i, t := range c.Targets {
		t.Index = i
		if t.Name == "" {
			t.Name = string(t.Kind)
		}
		if t.SpecConstants == "" {
			t.SpecConstants = SpecEmulation
			if t.Kind == SPIR64 || t.Kind == LLVMIR {
				t.SpecConstants = SpecNative
			}
		}
	}
}

// DefaultHost is the host triple used when the config names none: the
// machine sycbuild runs on.
func DefaultHost() string {
	if runtime.GOARCH == "arm64" {
		return "aarch64-unknown-linux-gnu"
	}
	return "x86_64-unknown-linux-gnu"
}

func itoa(i int) string { return strconv.Itoa(i) }
