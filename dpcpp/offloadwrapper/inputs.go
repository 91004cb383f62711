package offloadwrapper

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sycbuild/sycbuild/filetable"
	"github.com/sycbuild/sycbuild/props"
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

func (a *Annotation) set(name, value string) {
	switch name {
	case "kind":
		a.Kind = value
	case "target":
		a.Target = value
	case "format":
		a.Format = value
	case "compile-opts":
		a.CompileOpts = value
	case "link-opts":
		a.LinkOpts = value
	case "entries":
		a.Entries = value
	case "properties":
		a.Properties = value
	}
}

// collectImages returns the images of the input groups, in order (and row
// order within a table); files are relative to dir.
func collectImages(dir string, groups []Input, batch bool) ([]wrapper.Image, error) {
	var images []wrapper.Image
	for _, g := range groups {
		if batch {
			for _, table := range g.Files {
				imgs, err := imagesFromTable(dir, table, g.Annotation)
				if err != nil {
					return nil, err
				}
				images = append(images, imgs...)
			}
			continue
		}
		if len(g.Files) > 2 {
			return nil, fmt.Errorf("too many inputs for a single binary image, <binary file> <manifest file>{opt}expected")
		}
		manifest := ""
		if len(g.Files) == 2 {
			manifest = g.Files[1]
		}
		img, err := g.image(dir, g.Files[0], manifest, g.Entries, g.Properties)
		if err != nil {
			return nil, err
		}
		images = append(images, img)
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
// and properties files ("" for none) relative to dir.
func (a Annotation) image(dir, file, manifest, entriesFile, propsFile string) (wrapper.Image, error) {
	if a.Kind == "" {
		return wrapper.Image{}, fmt.Errorf("offload model not set")
	}
	if file == "" {
		return wrapper.Image{}, fmt.Errorf("image file name missing")
	}
	if a.Kind != "sycl" {
		return wrapper.Image{}, fmt.Errorf("%s: -kind=%s is not supported: sycbuild wraps -kind=sycl images only", file, a.Kind)
	}
	img := wrapper.Image{
		Kind:           kinds[a.Kind],
		Target:         a.Target,
		Format:         formats[a.Format],
		CompileOptions: a.CompileOpts,
		LinkOptions:    a.LinkOpts,
		File:           file,
		Manifest:       manifest,
	}
	if entriesFile != "" {
		entries, err := readEntries(dir, entriesFile)
		if err != nil {
			return img, err
		}
		img.Entries = entries
	}
	if propsFile != "" {
		f, err := open(dir, propsFile)
		if err != nil {
			return img, err
		}
		reg, err := props.Read(propsFile, f)
		f.Close()
		if err != nil {
			return img, err
		}
		img.PropertySets = propertySets(reg)
		img.PropertiesFile = propsFile
	}
	return img, nil
}

// imagesFromTable returns the images of one -batch table under a; the
// table and the files it names are relative to dir.
func imagesFromTable(dir, table string, a Annotation) ([]wrapper.Image, error) {
	t, err := filetable.ReadFileIn(dir, table)
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
		img, err := a.image(dir, row[code], cell(row, "Manifest"), cell(row, "Symbols"), cell(row, "Properties"))
		if err != nil {
			return nil, fmt.Errorf("%s: row %d: %w", table, i+1, err)
		}
		images = append(images, img)
	}
	return images, nil
}

// readEntries reads an entries (.sym) file, relative to dir: one name per
// line, blank lines skipped, "\r\n" accepted. An empty file gives an empty,
// non-nil list.
func readEntries(dir, name string) ([]string, error) {
	f, err := open(dir, name)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	f.Close()
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

// open opens the file called name, relative to dir when it is relative
// ("" is the working directory); an error names the file as given.
func open(dir, name string) (*os.File, error) {
	path := name
	if dir != "" && !filepath.IsAbs(name) {
		path = filepath.Join(dir, name)
	}
	f, err := os.Open(path)
	if pe, ok := err.(*os.PathError); ok {
		pe.Path = name
	}
	return f, err
}
