package props

import (
	"slices"
	"sort"

	"github.com/sycbuild/sycbuild/llvmir"
)

// Requirements is what an image needs from a device
// (SYCLDeviceRequirements): it decides where the runtime may run the image
// and is written as the [SYCL/device requirements] set.
type Requirements struct {
	// Aspects is the union of the !sycl_used_aspects and
	// !sycl_declared_aspects of every function, sorted and unique;
	// negative (internal) aspects are left out.
	Aspects []uint32
	// FixedTargets is the union of every !sycl_fixed_targets, sorted.
	FixedTargets []uint32
	// ReqdWorkGroupSize is the !reqd_work_group_size all functions that
	// have one agree on (nil when none has one or they disagree).
	ReqdWorkGroupSize []uint64
	// WorkGroupNumDim is the first !work_group_num_dim seen before any
	// !reqd_work_group_size (nil when none).
	WorkGroupNumDim *uint32
	// JointMatrix and JointMatrixMad are the last non-empty
	// !sycl_joint_matrix(_mad) strings (nil when none).
	JointMatrix, JointMatrixMad *string
	// SubGroupSize is the entry points' !intel_reqd_sub_group_size.
	SubGroupSize *uint32
}

// DeviceRequirements computes the image's requirements: aspects, fixed
// targets, work-group shape and joint-matrix use from all its functions,
// the sub-group size from its entry points (computeDeviceRequirements).
func DeviceRequirements(img *Image) (*Requirements, error) {
	r := &Requirements{}
	aspects := map[uint32]bool{}
	fixed := map[uint32]bool{}
	multipleWG := false
	for _, f := range img.functions() {
		if img.Dummy && !img.isDecl(f) {
			// A dummy image's definitions lost their metadata with their
			// bodies.
			continue
		}
		if err := addAspects(img, f, aspects); err != nil {
			return nil, err
		}
		if err := addFixedTargets(img, f, fixed); err != nil {
			return nil, err
		}
		differs, err := r.addWorkGroup(img, f)
		if err != nil {
			return nil, err
		}
		multipleWG = multipleWG || differs
		if err := r.addJointMatrix(img, f); err != nil {
			return nil, err
		}
	}
	if err := r.addSubGroupSize(img); err != nil {
		return nil, err
	}
	if multipleWG {
		r.ReqdWorkGroupSize = nil
	}
	r.Aspects = sortedKeys(aspects)
	r.FixedTargets = sortedKeys(fixed)
	return r, nil
}

// addAspects adds f's used and declared aspects to aspects, leaving out
// negative (internal) ones. A function's declared aspects
// ([[sycl::device_has]]) count as used: the front end attaches them to a
// declaration or definition the aspect propagation may not have reached
// (device-requirements/sycl-declared-aspects.ll).
func addAspects(img *Image, f *llvmir.Entity, aspects map[uint32]bool) error {
	for _, kind := range [...]string{"sycl_used_aspects", "sycl_declared_aspects"} {
		n := f.Attachment(kind)
		if n == nil {
			continue
		}
		for i := range n.Ops {
			v, ok := int64(0), false
			if pair := n.Ops[i].Target(); pair != nil {
				// !{!"fp64", i32 6}: a named aspect.
				v, ok = mdInt(pair, 1)
			} else {
				v, ok = mdInt(n, i)
			}
			if !ok {
				return img.malformed(f, "!"+kind)
			}
			if v >= 0 {
				aspects[uint32(v)] = true
			}
		}
	}
	return nil
}

// addFixedTargets adds f's !sycl_fixed_targets to fixed.
func addFixedTargets(img *Image, f *llvmir.Entity, fixed map[uint32]bool) error {
	if n := f.Attachment("sycl_fixed_targets"); n != nil {
		for i := range n.Ops {
			v, ok := mdUint(n, i)
			if !ok {
				return img.malformed(f, "!sycl_fixed_targets")
			}
			fixed[uint32(v)] = true
		}
	}
	return nil
}

// addWorkGroup takes f's !work_group_num_dim unless a
// !reqd_work_group_size came first, and f's !reqd_work_group_size unless
// one came first; it reports whether f's differs from the first.
func (r *Requirements) addWorkGroup(img *Image, f *llvmir.Entity) (differs bool, err error) {
	if n := f.Attachment("work_group_num_dim"); n != nil {
		v, ok := mdUint(n, 0)
		if !ok {
			return false, img.malformed(f, "!work_group_num_dim")
		}
		if r.ReqdWorkGroupSize == nil {
			d := uint32(v)
			r.WorkGroupNumDim = &d
		}
	}
	if n := f.Attachment("reqd_work_group_size"); n != nil {
		sizes := make([]uint64, len(n.Ops))
		for i := range n.Ops {
			v, ok := mdUint(n, i)
			if !ok {
				return false, img.malformed(f, "!reqd_work_group_size")
			}
			sizes[i] = v
		}
		if r.ReqdWorkGroupSize == nil {
			r.ReqdWorkGroupSize = sizes
		}
		if !slices.Equal(r.ReqdWorkGroupSize, sizes) {
			differs = true
		}
	}
	return differs, nil
}

// addJointMatrix takes f's !sycl_joint_matrix and !sycl_joint_matrix_mad
// where they are not empty.
func (r *Requirements) addJointMatrix(img *Image, f *llvmir.Entity) error {
	for _, jm := range []struct {
		kind string
		dst  **string
	}{{"sycl_joint_matrix", &r.JointMatrix}, {"sycl_joint_matrix_mad", &r.JointMatrixMad}} {
		if n := f.Attachment(jm.kind); n != nil {
			s, ok := mdString(n, 0)
			if !ok {
				return img.malformed(f, "!"+jm.kind)
			}
			if s != "" {
				*jm.dst = &s
			}
		}
	}
	return nil
}

// addSubGroupSize takes the first entry point's !intel_reqd_sub_group_size.
func (r *Requirements) addSubGroupSize(img *Image) error {
	for _, f := range img.EntryPoints {
		if n := f.Attachment("intel_reqd_sub_group_size"); n != nil {
			v, ok := mdUint(n, 0)
			if !ok || len(n.Ops) != 1 {
				return img.malformed(f, "!intel_reqd_sub_group_size")
			}
			if r.SubGroupSize == nil {
				s := uint32(v)
				r.SubGroupSize = &s
			}
		}
	}
	return nil
}

func sortedKeys(m map[uint32]bool) []uint32 {
	out := make([]uint32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// addTo writes the requirements in the reference's (std::map, so sorted)
// key order; aspects are always written, the others only when present.
func (r *Requirements) addTo(s *PropertySet) {
	s.Add(NewUint32Array("aspects", r.Aspects))
	if len(r.FixedTargets) > 0 {
		s.Add(NewUint32Array("fixed_target", r.FixedTargets))
	}
	if r.JointMatrix != nil {
		s.Add(NewString("joint_matrix", *r.JointMatrix))
	}
	if r.JointMatrixMad != nil {
		s.Add(NewString("joint_matrix_mad", *r.JointMatrixMad))
	}
	if r.SubGroupSize != nil {
		s.Add(NewUint32("reqd_sub_group_size", *r.SubGroupSize))
	}
	if r.ReqdWorkGroupSize != nil {
		s.Add(NewUint64Array("reqd_work_group_size_uint64_t", r.ReqdWorkGroupSize))
	}
	if r.WorkGroupNumDim != nil {
		s.Add(NewUint32("work_group_num_dim", *r.WorkGroupNumDim))
	}
}
