package offloadwrapper

import (
	"fmt"
	"os"
	"strings"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/props"
	"github.com/sycbuild/sycbuild/tools/clopt"
	"github.com/sycbuild/sycbuild/wrapper"
)

// The inputs of clang-offload-wrapper, as the DPC++ tool reads them: the
// annotation options (-kind, -target, -format, -compile-opts, -link-opts,
// -entries, -properties) are sticky, applying to every later input until
// given again, and each one ends the current input group. Without -batch a
// group is an image file optionally followed by its manifest; with -batch
// (a mode for the whole command line, earlier inputs included) every input
// is a file table whose rows are images: columns Code (required), Symbols
// (entries), Properties and Manifest, an empty cell meaning none.

// annotations are the options that annotate the inputs after them.
var annotations = map[string]bool{
	"kind": true, "target": true, "format": true, "compile-opts": true,
	"link-opts": true, "entries": true, "properties": true,
}

// annotation is the value of every annotation option at one point of the
// command line.
type annotation struct {
	kind, target, format, compileOpts, linkOpts, entries, properties string
}

func (a *annotation) set(name, value string) {
	switch name {
	case "kind":
		a.kind = value
	case "target":
		a.target = value
	case "format":
		a.format = value
	case "compile-opts":
		a.compileOpts = value
	case "link-opts":
		a.linkOpts = value
	case "entries":
		a.entries = value
	case "properties":
		a.properties = value
	}
}

// collectImages returns the images the command line describes, in
// command-line order (and row order within a table).
func collectImages(occs []clopt.Occurrence, batch bool) ([]wrapper.Image, error) {
	var images []wrapper.Image
	cur := annotation{format: "none"}
	var group []string
	var groupAnn annotation
	flush := func() error {
		files := group
		group = nil
		if len(files) == 0 {
			return nil
		}
		if batch {
			for _, table := range files {
				imgs, err := imagesFromTable(table, groupAnn)
				if err != nil {
					return err
				}
				images = append(images, imgs...)
			}
			return nil
		}
		if len(files) > 2 {
			return fmt.Errorf("too many inputs for a single binary image, <binary file> <manifest file>{opt}expected")
		}
		manifest := ""
		if len(files) == 2 {
			manifest = files[1]
		}
		img, err := groupAnn.image(files[0], manifest, groupAnn.entries, groupAnn.properties)
		if err != nil {
			return err
		}
		images = append(images, img)
		return nil
	}
	for _, o := range occs {
		switch {
		case o.Name == "":
			if len(group) == 0 {
				groupAnn = cur
			}
			group = append(group, o.Value)
		case annotations[o.Name]:
			if err := flush(); err != nil {
				return nil, err
			}
			cur.set(o.Name, o.Value)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return images, nil
}

var kinds = map[string]wrapper.OffloadKind{
	"unknown": wrapper.OFK_Unknown, "host": wrapper.OFK_Host, "openmp": wrapper.OFK_OpenMP,
	"hip": wrapper.OFK_HIP, "sycl": wrapper.OFK_SYCL,
}

var formats = map[string]wrapper.BinaryFormat{
	"none":   wrapper.SYCL_DEVICE_BINARY_TYPE_NONE,
	"native": wrapper.SYCL_DEVICE_BINARY_TYPE_NATIVE,
	"spirv":  wrapper.SYCL_DEVICE_BINARY_TYPE_SPIRV,
	"llvmbc": wrapper.SYCL_DEVICE_BINARY_TYPE_LLVMIR_BITCODE,
}

// image describes one image under the annotation a, reading its entries
// and properties files ("" for none).
func (a annotation) image(file, manifest, entriesFile, propsFile string) (wrapper.Image, error) {
	if a.kind == "" {
		return wrapper.Image{}, fmt.Errorf("offload model not set")
	}
	if file == "" {
		return wrapper.Image{}, fmt.Errorf("image file name missing")
	}
	if a.kind != "sycl" {
		return wrapper.Image{}, fmt.Errorf("%s: -kind=%s is not supported: sycbuild wraps -kind=sycl images only", file, a.kind)
	}
	img := wrapper.Image{
		Kind:           kinds[a.kind],
		Target:         a.target,
		Format:         formats[a.format],
		CompileOptions: a.compileOpts,
		LinkOptions:    a.linkOpts,
		File:           file,
		Manifest:       manifest,
	}
	if entriesFile != "" {
		entries, err := readEntries(entriesFile)
		if err != nil {
			return img, err
		}
		img.Entries = entries
	}
	if propsFile != "" {
		reg, err := props.ReadFile(propsFile)
		if err != nil {
			return img, err
		}
		img.PropertySets = propertySets(reg)
		img.PropertiesFile = propsFile
	}
	return img, nil
}

// imagesFromTable returns the images of one -batch table under a.
func imagesFromTable(table string, a annotation) ([]wrapper.Image, error) {
	t, err := filetable.ReadFile(table)
	if err != nil {
		return nil, err
	}
	code := t.ColumnIndex("Code")
	if code < 0 {
		return nil, fmt.Errorf("%s: the batch table has no Code column (it has %s)", table, strings.Join(t.Columns, ", "))
	}
	cell := func(row []string, column string) string {
		if c := t.ColumnIndex(column); c >= 0 {
			return row[c]
		}
		return ""
	}
	images := make([]wrapper.Image, 0, len(t.Rows))
	for i, row := range t.Rows {
		img, err := a.image(row[code], cell(row, "Manifest"), cell(row, "Symbols"), cell(row, "Properties"))
		if err != nil {
			return nil, fmt.Errorf("%s: row %d: %w", table, i+1, err)
		}
		images = append(images, img)
	}
	return images, nil
}

// readEntries reads an entries (.sym) file: one name per line, blank lines
// skipped, "\r\n" accepted. An empty file gives an empty, non-nil list.
func readEntries(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	entries := []string{}
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line != "" {
			entries = append(entries, line)
		}
	}
	return entries, nil
}

// propertySets converts a .prop registry into the descriptor's property
// sets; byte-array values are passed raw, with their bit-count prefix.
func propertySets(reg *props.Registry) []wrapper.PropertySet {
	sets := make([]wrapper.PropertySet, 0, len(reg.Sets()))
	for _, s := range reg.Sets() {
		ps := wrapper.PropertySet{Name: s.Name, Properties: make([]wrapper.Property, 0, s.Len())}
		for _, p := range s.Properties() {
			wp := wrapper.Property{Name: p.Name}
			switch p.Type {
			case props.TypeUint32:
				wp.Type, wp.Uint32 = wrapper.SYCL_PROPERTY_TYPE_UINT32, p.Uint32
			case props.TypeByteArray:
				wp.Type, wp.Bytes = wrapper.SYCL_PROPERTY_TYPE_BYTE_ARRAY, p.Bytes
			default:
				wp.Type = wrapper.PropertyType(p.Type) // refused by wrapper.Write
			}
			ps.Properties = append(ps.Properties, wp)
		}
		sets = append(sets, ps)
	}
	return sets
}
