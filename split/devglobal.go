package split

import (
	"errors"

	"github.com/sycbuild/sycbuild/llvmir"
)

// CheckDeviceGlobals is verifyNoCrossModuleDeviceGlobalUsage: a device
// global with the "device_image_scope" property lives in one device image,
// so the entry points that use it (directly or through callers) must all
// be in the same group.
func (s *Splitter) CheckDeviceGlobals() error {
	if len(s.groups) < 2 {
		return nil
	}
	groupOf := map[*llvmir.Entity]int{}
	for gi := range s.groups {
		for _, e := range s.groups[gi].Entries {
			groupOf[e] = gi
		}
	}
	var users map[*llvmir.Entity][]*llvmir.Entity
	for _, gv := range s.M.Entities {
		if gv.Var == nil || s.in.isRemoved(gv) {
			continue
		}
		attrs := s.M.Attrs(gv)
		if !attrs.Has("sycl-device-global-size") {
			continue
		}
		if !hasImageScope(attrs) {
			continue
		}
		if users == nil {
			users = map[*llvmir.Entity][]*llvmir.Entity{}
			for _, e := range s.M.Entities {
				for _, g := range s.in.refs(e) {
					users[g] = append(users[g], e)
				}
			}
		}
		seen := map[*llvmir.Entity]bool{gv: true}
		queue := []*llvmir.Entity{gv}
		group := -1
		for k := 0; k < len(queue); k++ {
			for _, u := range users[queue[k]] {
				if seen[u] || s.in.isRemoved(u) {
					continue
				}
				seen[u] = true
				if gi, ok := groupOf[u]; ok {
					if group >= 0 && gi != group {
						return errors.New("device_global variable '" + gv.Name + "' with property \"device_image_scope\" is used in more than one device image.")
					}
					group = gi
				}
				queue = append(queue, u)
			}
		}
	}
	return nil
}

// hasImageScope reports whether a device global's attributes give it the
// device_image_scope property: present with any value but "false", spelled
// "device_image_scope" or, as the front end writes it,
// "sycl-device-image-scope".
func hasImageScope(attrs llvmir.Attrs) bool {
	for _, key := range [...]string{"device_image_scope", "sycl-device-image-scope"} {
		if v, ok := attrs.Get(key); ok && v != "false" {
			return true
		}
	}
	return false
}
