// Package spirvtest reads what the project's tests check in spirv-dis
// output: the specialization constants and their SpecId decorations.
package spirvtest

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SpecConst is a scalar specialization constant of a disassembly.
type SpecConst struct {
	Width int    // bits
	Float bool   // a float type, else an integer or boolean one
	Value string // the literal ("true"/"false" for booleans)
}

// SpecConsts reads the SpecId decorations and the scalar specialization
// constants (OpSpecConstant, OpSpecConstantTrue/False) of spirv-dis output:
// SpecId → constant, and how many times each SpecId is decorated.
func SpecConsts(dis string) (map[uint32]SpecConst, map[uint32]int, error) {
	types := map[string]SpecConst{}
	consts := map[string]SpecConst{}
	ids := map[uint32]string{}
	count := map[uint32]int{}
	for _, line := range strings.Split(dis, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 4 && f[0] == "OpDecorate" && f[2] == "SpecId":
			n, err := strconv.ParseUint(f[3], 10, 32)
			if err != nil {
				return nil, nil, fmt.Errorf("bad decoration %q", line)
			}
			ids[uint32(n)] = f[1]
			count[uint32(n)]++
		case len(f) >= 4 && f[1] == "=" && (f[2] == "OpTypeInt" || f[2] == "OpTypeFloat"):
			w, _ := strconv.Atoi(f[3])
			types[f[0]] = SpecConst{Width: w, Float: f[2] == "OpTypeFloat"}
		case len(f) == 4 && f[1] == "=" && f[2] == "OpTypeBool":
			types[f[0]] = SpecConst{Width: 8}
		case len(f) == 5 && f[1] == "=" && f[2] == "OpSpecConstant":
			c, ok := types[f[3]]
			if !ok {
				return nil, nil, fmt.Errorf("spec constant of unknown type: %q", line)
			}
			c.Value = f[4]
			consts[f[0]] = c
		case len(f) == 4 && f[1] == "=" && (f[2] == "OpSpecConstantTrue" || f[2] == "OpSpecConstantFalse"):
			consts[f[0]] = SpecConst{Width: 8, Value: strings.ToLower(strings.TrimPrefix(f[2], "OpSpecConstant"))}
		}
	}
	out := map[uint32]SpecConst{}
	for id, name := range ids {
		c, ok := consts[name]
		if !ok {
			return nil, nil, fmt.Errorf("SpecId %d decorates %s, which is no scalar spec constant", id, name)
		}
		out[id] = c
	}
	return out, count, nil
}

// Matches reports whether the constant's literal equals the little-endian
// bytes b (for an integer, also in width).
func (c SpecConst) Matches(b []byte) bool {
	var raw [8]byte
	copy(raw[:], b)
	bits := binary.LittleEndian.Uint64(raw[:])
	switch {
	case c.Value == "true" || c.Value == "false":
		return (bits != 0) == (c.Value == "true")
	case c.Float:
		v, err := strconv.ParseFloat(c.Value, 64)
		if err != nil {
			return false
		}
		if c.Width == 32 {
			return math.Float32bits(float32(v)) == uint32(bits)
		}
		return math.Float64bits(v) == bits
	}
	v, err := strconv.ParseUint(c.Value, 10, 64)
	return err == nil && v == bits && c.Width == 8*len(b)
}
