package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/configs"
	"github.com/sycbuild/sycbuild/dpcpp/filetabletform"
	"github.com/sycbuild/sycbuild/dpcpp/offloadwrapper"
	"github.com/sycbuild/sycbuild/dpcpp/syclpostlink"
	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/graph"
	"github.com/sycbuild/sycbuild/internal/clopt"
	"github.com/sycbuild/sycbuild/postlink"
	"github.com/sycbuild/sycbuild/toolchain"
)

// target is a config target with the tools found for it.
type target struct {
	cfg   *configs.Target
	tools map[configs.Tool]*toolchain.Tool
	route configs.SPIRVRoute // spir64 and spir64_gen: how SPIR-V is made
}

func (t *target) spirv() bool { return t.cfg.Kind == configs.SPIR64 || t.cfg.Kind == configs.SPIR64Gen }

// need lists the tools a kind runs, with the LLVM generation of the LLVM
// ones (llvm-spirv-15 is the only translator there is, and it reads LLVM 15
// bitcode, which sycl-post-link writes itself: no llvm-as runs; NVPTX code
// generation uses LLVM 19, or the input's generation when it is newer: see
// nvptxLLVM). spirv-val is optional.
func need(k configs.Kind) (roles []configs.Tool, llvm map[configs.Tool]int) {
	switch k {
	case configs.SPIR64:
		return []configs.Tool{configs.ToolLLVMSPIRV}, map[configs.Tool]int{configs.ToolLLVMSPIRV: 15}
	case configs.SPIR64Gen:
		return []configs.Tool{configs.ToolLLVMSPIRV, configs.ToolOcloc}, map[configs.Tool]int{configs.ToolLLVMSPIRV: 15}
	case configs.NVPTX64:
		return []configs.Tool{configs.ToolLLC, configs.ToolPtxas, configs.ToolFatbinary}, map[configs.Tool]int{configs.ToolLLC: 19}
	case configs.AMDGCN:
		return amdgcnNeed()
	}
	return nil, nil
}

// resolveTools finds every tool the build needs, and checks that each
// target can read the IR. Everything missing is reported at once, naming
// the target that needs it; optional targets with missing tools are left
// out with a warning instead.
func (p *planner) resolveTools(in *inputSet) ([]*target, *toolchain.Tool, error) {
	var errs errorList
	var out []*target
	for _, tc := range p.cfg.Targets {
		loc := p.cfg.TargetLoc(tc)
		t := &target{cfg: tc, tools: map[configs.Tool]*toolchain.Tool{}}
		var problems []string
		// Each problem completes "target <name> …".
		if t.spirv() {
			t.route = spirvRoute(tc, in)
			if t.route == configs.SPIRVTranslator && in.llvm > 15 {
				problems = append(problems, fmt.Sprintf("cannot use the inputs: llvm-spirv-15 reads only LLVM 15 IR, and %s (spirv: llvm-backend reads it)", in.why))
			}
			why := ""
			if tc.SPIRV == "" && t.route == configs.SPIRVBackend {
				why = ", chosen because " + in.why
			}
			errs = append(errs, p.checkRouteOptions(t, why)...)
		}
		roles, llvm := need(tc.Kind)
		if t.route == configs.SPIRVBackend {
			roles, llvm = backendNeed(tc.Kind)
		}
		if tc.Kind == configs.NVPTX64 {
			llvm[configs.ToolLLC] = nvptxLLVM(in)
		}
		for _, role := range roles {
			tool, err := p.finder.Find(role, llvm[role])
			if err != nil {
				problems = append(problems, "needs "+string(role)+": "+err.Error())
				continue
			}
			t.tools[role] = tool
		}
		if ocloc := t.tools[configs.ToolOcloc]; ocloc != nil {
			errs = append(errs, p.checkDevices(tc, ocloc)...)
		}
		if tc.Kind == configs.NVPTX64 {
			if pr := nvptxReads(t.tools[configs.ToolLLC], in); pr != "" {
				problems = append(problems, pr)
			}
		}
		if t.spirv() {
			if val, err := p.finder.Find(configs.ToolSPIRVVal, 0); err == nil {
				t.tools[configs.ToolSPIRVVal] = val
			} else if !p.warnedVal {
				p.warnedVal = true
				p.warn("warning: SPIR-V modules will not be validated (ocloc does not validate its input either): " + err.Error())
			}
		}
		switch {
		case len(problems) == 0:
			out = append(out, t)
		case tc.Optional:
			p.warn(fmt.Sprintf("warning: %s: skipping optional target %s, which %s", loc.Position(), tc.Name, strings.Join(problems, "; ")))
		default:
			for _, pr := range problems {
				errs = append(errs, loc.Error("target %s %s", tc.Name, pr))
			}
		}
	}
	var link *toolchain.Tool
	if in.needs {
		tool, err := p.finder.Find(configs.ToolLLVMLink, p.linkLLVM(in, out))
		if err != nil {
			errs = append(errs, p.cfg.InputList().Error("the inputs need %s: %v", configs.ToolLLVMLink, err))
		}
		link = tool
	}
	if len(errs) > 0 {
		return nil, nil, errs
	}
	if len(out) == 0 {
		return nil, nil, errors.New("no target can be built (every optional target was skipped)")
	}
	return out, link, nil
}

// wrapInput is one file table for the wrapper, with the descriptor's
// target string and image format.
type wrapInput struct {
	table          *graph.Node
	target, format string
	// compileOpts are the image's compile options ("--offload-arch=gfx90a"
	// for amdgcn, as the DPC++ driver gives the wrapper).
	compileOpts string
}

// postLinkOptions returns each target's sycl-post-link options, without
// its outputs and input. A bad extra option is reported at its options:
// key, all of them together.
func (p *planner) postLinkOptions(targets []*target) ([]postlink.Options, error) {
	var errs errorList
	out := make([]postlink.Options, len(targets))
	for i, t := range targets {
		o, err := postLinkOptions(p.cfg, t.cfg)
		if err != nil {
			errs = append(errs, err)
		} else if o.Assembly && t.spirv() && t.route == configs.SPIRVTranslator {
			loc := p.cfg.OptionsLoc(t.cfg, configs.ToolPostLink)
			errs = append(errs, loc.Error("%s: -S: target %s makes SPIR-V with llvm-spirv, which reads only bitcode; remove -S", loc.Path, t.cfg.Name))
		}
		out[i] = o
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// postLinkOptions are the sycl-post-link options the DPC++ driver passes
// (clang/test/Driver/sycl-post-link-options.cpp), except the ESIMD
// lowering sycbuild does not have. The modules are bitcode, as the
// driver's are, which sycl-post-link writes itself for the input's LLVM
// generation: llvm-spirv reads nothing else, llc-22's SPIR-V backend reads
// it as well as text, and the runtime takes an llvm_ir image for LLVM IR
// by the bitcode's magic. Only the llc of nvptx64 and amdgcn targets reads
// text (-S), which also keeps their modules readable. The target's extra options
// (options: sycl-post-link:) are read by sycl-post-link's own parser, as
// if they followed the driver's on its command line; outputs and the input
// are the build's to name.
func postLinkOptions(cfg *configs.Config, t *configs.Target) (postlink.Options, error) {
	o := syclpostlink.Defaults()
	o.DeviceGlobals, o.Properties = true, true
	o.SpecConst, _ = postlink.ParseSpecConstMode(string(t.SpecConstants))
	switch cfg.Split {
	case configs.SplitPerSource:
		o.Split, o.SplitGiven = postlink.SplitSource, true
	case configs.SplitPerKernel:
		o.Split, o.SplitGiven = postlink.SplitKernel, true
	case configs.SplitAuto:
		o.Split, o.SplitGiven = postlink.SplitAuto, true
	}
	o.EmitOnlyKernelsAsEPs, o.EmitParamInfo, o.Symbols = true, true, true
	o.EmitExportedSymbols, o.EmitImportedSymbols = true, true
	o.SplitESIMD = true
	o.Assembly = t.Kind == configs.NVPTX64 || t.Kind == configs.AMDGCN
	extra := t.Options[configs.ToolPostLink]
	if len(extra) == 0 {
		return o, nil
	}
	loc := cfg.OptionsLoc(t, configs.ToolPostLink)
	var help strings.Builder
	parsed, err := syclpostlink.Parse(string(configs.ToolPostLink), append(syclpostlink.Args(o), extra...), &help)
	switch {
	case errors.Is(err, clopt.ErrHelp):
		return o, loc.Error("%s: --help and --version are not options for a build", loc.Path)
	case err != nil:
		return o, loc.Error("%s: %v", loc.Path, err)
	case len(parsed.Outputs) > 0 || parsed.Input != "-":
		return o, loc.Error("%s: the build names sycl-post-link's outputs (-o) and input itself", loc.Path)
	}
	return parsed, nil
}

// target adds one target's actions and returns the table for the wrapper;
// post are its sycl-post-link options (postLinkOptions).
func (p *planner) target(t *target, post postlink.Options, linked *graph.Node, in *inputSet) wrapInput {
	tc := t.cfg
	b := &fanoutPlan{p: p, t: t, dir: filepath.Join(p.cfg.BuildDir, tc.Name)}
	label := "[" + tc.Name + "] "
	t0 := p.postLink(post, linked, b.at(Stem+".table"), label)
	if tc.Kind == configs.LLVMIR {
		name := "llvm_ir"
		if a := arch(in.triple); a != "" {
			name = "llvm_" + a
		}
		return wrapInput{table: t0, target: name, format: "none"}
	}

	code := p.g.File(b.at("code.list"), graph.List)
	p.add(p.tform(label+"file-table-tform --extract=Code", filetable.Tform{
		Ops: []filetable.Op{{Kind: filetable.Extract, Arg: "Code"}}, DropTitles: true, Output: code.Path, Inputs: []string{t0.Path}},
		[]*graph.Node{t0}, []*graph.Node{code}))

	b.f = &graph.Fanout{List: code, Rows: t0, Dir: b.dir}
	desc, w := b.steps()
	f := b.f
	p.runOptions(tc, f)
	fan := &graph.Action{Desc: label + desc, Fanout: f, In: []*graph.Node{code}}
	for _, s := range f.Steps {
		if s.Out != nil {
			fan.Out = append(fan.Out, s.Out.List)
		}
	}
	p.add(fan)
	images := fan.Out[len(fan.Out)-1]

	t1 := p.g.File(b.at("images.table"), graph.Table)
	p.add(p.tform(label+"file-table-tform --replace=Code,Code", filetable.Tform{
		Ops: []filetable.Op{{Kind: filetable.Replace, Arg: "Code,Code"}}, Output: t1.Path, Inputs: []string{t0.Path, images.Path}},
		[]*graph.Node{t0, images}, []*graph.Node{t1}))
	w.table = t1
	return w
}

// postLink adds the sycl-post-link run that splits linked with the options
// post, writing the table table, and returns the table. The split of a
// target whose sycl-post-link options equal an earlier target's is that
// target's: one run serves both.
func (p *planner) postLink(post postlink.Options, linked *graph.Node, table, label string) *graph.Node {
	key := strings.Join(syclpostlink.Args(post), "\x00")
	t0 := p.postLinked[key]
	if t0 != nil {
		return t0
	}
	t0 = p.g.File(table, graph.Table)
	post.Outputs = []postlink.Output{{File: t0.Path}}
	post.Input = linked.Path
	a := p.inProcess(label+syclpostlink.Name, syclpostlink.Name, syclpostlink.Args(post),
		func(env graph.Env, stdio clopt.Stdio) int {
			return syclpostlink.Run(syclpostlink.Name, env.Dir, post, env.Tokens, stdio)
		},
		[]*graph.Node{linked}, []*graph.Node{t0})
	a.OwnsNamed = true
	p.add(a)
	if p.postLinked == nil {
		p.postLinked = map[string]*graph.Node{}
	}
	p.postLinked[key] = t0
	return t0
}

// fanoutPlan is one target's fan-out being planned: the steps its external
// tools run on each module of the split.
type fanoutPlan struct {
	p   *planner
	t   *target
	f   *graph.Fanout
	dir string // the target's build directory
}

// at is the file name in the target's build directory.
func (b *fanoutPlan) at(name string) string { return filepath.Join(b.dir, name) }

// opts are the target's options for the tool of role.
func (b *fanoutPlan) opts(role configs.Tool) []string { return b.t.cfg.Options[role] }

// step adds a step reading the given placeholders and, when ext is not
// empty, writing module_<i>.<ext>, listed in <ext>.list.
func (b *fanoutPlan) step(role configs.Tool, args []string, in []graph.StepInput, ext string) {
	s := &graph.Step{Tool: graphTool(b.t.tools[role]), Args: args, In: in}
	if ext != "" {
		s.Out = &graph.StepOutput{Placeholder: ph(ext), Ext: ext, List: b.p.g.File(b.at(ext+".list"), graph.List)}
	}
	b.f.Steps = append(b.f.Steps, s)
}

// from is the index of the step writing the files with extension ext, or
// -1 (the module itself) when none does.
func (b *fanoutPlan) from(ext string) int {
	for k, s := range b.f.Steps {
		if s.Out != nil && s.Out.Ext == ext {
			return k
		}
	}
	return -1 // the module itself
}

// steps adds the steps of the target's kind and returns the fan-out's
// description and the wrapper's target, format and compile options for
// its images.
func (b *fanoutPlan) steps() (string, wrapInput) {
	tc := b.t.cfg
	switch tc.Kind {
	case configs.SPIR64, configs.SPIR64Gen:
		return b.spirvSteps()
	case configs.NVPTX64:
		b.step(configs.ToolLLC, toolchain.LLCArgs(ph("ll"), ph("ptx"), tc.Arch, b.opts(configs.ToolLLC)), []graph.StepInput{{Placeholder: ph("ll"), From: -1}}, "ptx")
		b.step(configs.ToolPtxas, toolchain.PtxasArgs(ph("ptx"), ph("cubin"), tc.Arch, b.opts(configs.ToolPtxas)), []graph.StepInput{{Placeholder: ph("ptx"), From: b.from("ptx")}}, "cubin")
		b.step(configs.ToolFatbinary, toolchain.FatbinaryArgs(ph("ptx"), ph("cubin"), ph("fatbin"), tc.Arch, b.opts(configs.ToolFatbinary)),
			[]graph.StepInput{{Placeholder: ph("ptx"), From: b.from("ptx")}, {Placeholder: ph("cubin"), From: b.from("cubin")}}, "fatbin")
		return "ptxas", wrapInput{target: "nvptx64", format: "native"}
	case configs.AMDGCN:
		b.p.amdgcnSteps(b.t, b.f, b.step, b.from)
		return "ld.lld → clang-offload-bundler", wrapInput{target: "amdgcn", format: "native", compileOpts: "--offload-arch=" + tc.Arch}
	}
	return "", wrapInput{}
}

// spirvSteps adds the steps of a spir64 or spir64_gen target: SPIR-V from
// llvm-spirv or the SPIR-V backend, spirv-val where configured and, for
// spir64_gen, ocloc.
func (b *fanoutPlan) spirvSteps() (string, wrapInput) {
	t, tc := b.t, b.t.cfg
	desc := "llvm-spirv"
	if t.route == configs.SPIRVBackend {
		b.f.Steps = append(b.f.Steps, b.p.backendStep(t, b.at))
		desc = "llc (SPIR-V backend)"
	} else {
		// llvm-spirv reads the bitcode sycl-post-link wrote.
		b.step(configs.ToolLLVMSPIRV, toolchain.LLVMSPIRVArgs(ph("bc"), ph("spv"), b.opts(configs.ToolLLVMSPIRV)), []graph.StepInput{{Placeholder: ph("bc"), From: -1}}, "spv")
	}
	if t.tools[configs.ToolSPIRVVal] != nil {
		b.step(configs.ToolSPIRVVal, toolchain.SPIRVValArgs(ph("spv"), b.opts(configs.ToolSPIRVVal)), []graph.StepInput{{Placeholder: ph("spv"), From: b.from("spv")}}, "")
	}
	if tc.Kind != configs.SPIR64Gen {
		return desc, wrapInput{target: "spir64", format: "spirv"}
	}
	b.step(configs.ToolOcloc, toolchain.OclocArgs(ph("spv"), ph("bin"), tc.Devices, b.opts(configs.ToolOcloc)), []graph.StepInput{{Placeholder: ph("spv"), From: b.from("spv")}}, "bin")
	if desc = "ocloc"; t.route == configs.SPIRVBackend {
		desc = "llc (SPIR-V backend) → ocloc"
	}
	return desc, wrapInput{target: "spir64_gen", format: "native"}
}

// tform makes a file-table-tform action.
func (p *planner) tform(desc string, t filetable.Tform, in, out []*graph.Node) *graph.Action {
	return p.inProcess(desc, filetabletform.Name, filetabletform.Args(t),
		func(env graph.Env, stdio clopt.Stdio) int {
			return filetabletform.Run(filetabletform.Name, env.Dir, t, stdio)
		},
		in, out)
}

// ph is the fan-out placeholder of a per-module file with extension ext:
// its stem names the outputs module_<i>.<ext>, as llvm-foreach
// --deterministic names them.
func ph(ext string) string { return Stem + "." + ext }

// wrap adds the wrapper action, which writes the output object.
func (p *planner) wrap(in []wrapInput) {
	out := p.g.File(p.cfg.Output, graph.Plain)
	// The build's product is the host object itself, whatever it is named.
	o := offloadwrapper.Defaults()
	o.Output, o.OutputFormat, o.Host, o.Batch = out.Path, "elf", p.cfg.Host, true
	o.OffloadBinary = p.cfg.Wrapper == configs.WrapperOffloadBinary
	o.SPIRVFallback = p.fallsBack()
	var ins []*graph.Node
	for _, w := range in {
		o.Inputs = append(o.Inputs, offloadwrapper.Input{
			Annotation: offloadwrapper.Annotation{Kind: "sycl", Target: w.target, Format: w.format, CompileOpts: w.compileOpts},
			Files:      []string{w.table.Path}})
		ins = append(ins, w.table)
	}
	p.add(p.inProcess(offloadwrapper.Name+" "+out.Path, offloadwrapper.Name, offloadwrapper.Args(o),
		func(env graph.Env, stdio clopt.Stdio) int {
			return offloadwrapper.Run(offloadwrapper.Name, env.Dir, o, stdio)
		},
		ins, []*graph.Node{out}))
}
