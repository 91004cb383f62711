package props

import (
	"encoding/binary"

	"github.com/sycbuild/sycbuild/llvmir"
)

// The global-variable attributes the SYCL front end puts on device globals
// and host pipes.
const (
	attrDeviceGlobalSize = "sycl-device-global-size"
	attrUniqueID         = "sycl-unique-id"
	attrHostPipe         = "sycl-host-pipe"
	attrHostPipeSize     = "sycl-host-pipe-size"
)

// isDeviceGlobal reports whether global variable g is a device global: it
// carries sycl-device-global-size.
func isDeviceGlobal(img *Image, g *llvmir.Entity) bool {
	return img.hasAttr(g, attrDeviceGlobalSize)
}

// IsDeviceGlobal reports whether g is a device global variable of m.
func IsDeviceGlobal(m *llvmir.Module, g *llvmir.Entity) bool {
	return g.Var != nil && m.Attrs(g).Has(attrDeviceGlobalSize)
}

// HasDeviceImageScope reports whether device global g has the
// device_image_scope property: the attribute is present (spelled
// "device_image_scope", or "sycl-device-image-scope" as some versions of the
// front end write it) with any value but "false".
func HasDeviceImageScope(m *llvmir.Module, g *llvmir.Entity) bool {
	as := m.Attrs(g)
	for _, key := range []string{"device_image_scope", "sycl-device-image-scope"} {
		if v, ok := as.Get(key); ok && v != "false" {
			return true
		}
	}
	return false
}

// uniqueID returns the sycl-unique-id of a device global or host pipe.
func uniqueID(img *Image, g *llvmir.Entity) (string, error) {
	id, ok := img.attr(g, attrUniqueID)
	if !ok {
		return "", img.malformed(g, `attributes (no "sycl-unique-id")`)
	}
	return id, nil
}

// sizeAttr returns a decimal size attribute as a uint32.
func sizeAttr(img *Image, g *llvmir.Entity, key string) (uint32, error) {
	v, _ := img.attr(g, key)
	n, ok := attrUint(v)
	if !ok || n > 0xFFFFFFFF {
		return 0, img.malformed(g, `"`+key+`" attribute`)
	}
	return uint32(n), nil
}

// addDeviceGlobals adds [SYCL/device globals] when the image has device
// globals: per device global (module order), under its unique ID, the size
// of its underlying type and whether it has device_image_scope, as the
// runtime's 8-byte {uint32 size; uint32 scope} record.
func addDeviceGlobals(r *Registry, img *Image) error {
	for _, g := range img.globalVars() {
		if !isDeviceGlobal(img, g) {
			continue
		}
		id, err := uniqueID(img, g)
		if err != nil {
			return err
		}
		size, err := sizeAttr(img, g, attrDeviceGlobalSize)
		if err != nil {
			return err
		}
		var scope uint32
		if HasDeviceImageScope(img.M, g) {
			scope = 1
		}
		data := binary.LittleEndian.AppendUint32(nil, size)
		data = binary.LittleEndian.AppendUint32(data, scope)
		r.Add(SetDeviceGlobals, NewByteArray(id, data))
	}
	return nil
}

// addHostPipes adds [SYCL/host pipes] when the image has host pipes: per
// variable with sycl-host-pipe, under its unique ID, the size of its
// element type as one uint32.
func addHostPipes(r *Registry, img *Image) error {
	for _, g := range img.globalVars() {
		if !img.hasAttr(g, attrHostPipe) {
			continue
		}
		id, err := uniqueID(img, g)
		if err != nil {
			return err
		}
		size, err := sizeAttr(img, g, attrHostPipeSize)
		if err != nil {
			return err
		}
		r.Add(SetHostPipes, NewUint32Array(id, []uint32{size}))
	}
	return nil
}
