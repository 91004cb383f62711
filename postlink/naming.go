package postlink

import (
	"strconv"
	"strings"
)

// Naming derives every output file name from one prefix, with the newest
// reference's dot-separated suffixes:
//
//	<prefix>_<id>[.esimd].bc|.ll|.sym   IR and symbols, shared by all tables
//	<prefix>_<id>[.esimd].prop          properties of a table without target
//	<prefix>_<id>.<target>.prop         properties of an "-o target,file" table
//
// The SYCL and ESIMD modules of one group share its ID and differ by the
// suffix. (Earlier references wrote <prefix>_esimd_<id> and
// <prefix>_<target>_<id>.prop; the table names every file, so readers of
// the table need not know either form.)
//
// Module files are bitcode (.bc) unless -S asks for text (.ll), as the
// reference's are; see IO.Assemble.
type Naming struct {
	Prefix string
	// Bitcode says module files are bitcode.
	Bitcode bool
}

// NewNaming computes the prefix as the reference does: the -out-dir
// directory (a '/' appended when missing) or else the parent directory of
// the first -o file, followed by that file's stem.
func NewNaming(o *Options) Naming {
	first := o.Outputs[0].File
	dir := o.OutDir
	if dir == "" {
		dir = parentPath(first)
	}
	if dir != "" && !strings.HasSuffix(dir, "/") {
		dir += "/"
	}
	return Naming{Prefix: dir + stem(first)}
}

// parentPath is LLVM's sys::path::parent_path for POSIX paths: "" when the
// path has no directory part (unlike filepath.Dir, which says ".").
func parentPath(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	if d := strings.TrimRight(p[:i], "/"); d != "" {
		return d
	}
	return "/"
}

// stem is LLVM's sys::path::stem: the file name without its last extension
// ("a.files.table" → "a.files"; ".files" → "").
func stem(p string) string {
	name := p[strings.LastIndexByte(p, '/')+1:]
	if name == "." || name == ".." {
		return name
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i]
	}
	return name
}

func (n Naming) base(esimd bool, id int) string {
	var b strings.Builder
	b.WriteString(n.Prefix)
	b.WriteByte('_')
	b.WriteString(strconv.Itoa(id))
	if esimd {
		b.WriteString(".esimd")
	}
	return b.String()
}

// IR is the name of module id's IR file.
func (n Naming) IR(esimd bool, id int) string {
	if n.Bitcode {
		return n.base(esimd, id) + ".bc"
	}
	return n.base(esimd, id) + ".ll"
}

// Sym is the name of module id's symbol file.
func (n Naming) Sym(esimd bool, id int) string { return n.base(esimd, id) + ".sym" }

// Prop is the name of module id's property file for the table of target
// ("" for a table without target). A target replaces the .esimd suffix.
func (n Naming) Prop(target string, esimd bool, id int) string {
	if target != "" {
		return n.Prefix + "_" + strconv.Itoa(id) + "." + target + ".prop"
	}
	return n.base(esimd, id) + ".prop"
}
