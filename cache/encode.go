package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// KeyVersion names the meaning of the key: it is one of the Command's
// environment variables, and changes when what an Action's encoding
// means changes, so that older entries are never taken for newer ones.
const KeyVersion = "1"

// Digest names a blob by content: its SHA-256 in lower-case hex and its
// size, as the Remote Execution API's Digest message does.
type Digest struct {
	Hash string
	Size int64
}

// DigestOf returns the digest of b.
func DigestOf(b []byte) Digest {
	s := sha256.Sum256(b)
	return Digest{hex.EncodeToString(s[:]), int64(len(b))}
}

func (d Digest) String() string { return d.Hash + "/" + strconv.FormatInt(d.Size, 10) }

// Encoded is an Action written as the Remote Execution API's messages, in
// their canonical binary form (fields in order, lists sorted as the API
// requires), so that equal actions give equal bytes wherever they are
// encoded.
//
// The Command's arguments are the action's argvs joined by "&&"; when an
// action has several argvs the Command also holds SYCBUILD_ARGV_LENGTHS,
// the length of each, so that the joining is unambiguous. Each tool
// identity is the environment variable SYCBUILD_TOOL_<i> (i from 0, in the
// order of the argvs), and SYCBUILD_KEY_VERSION is KeyVersion. The
// Command's output_paths are the action's outputs, sorted.
//
// The Action's input_root_digest is the digest of a Merkle tree of
// Directory messages that holds every input by its path, with the input's
// hash and size as its digest. The inputs are never uploaded: the tree only
// identifies them. When Input.Hash is the full SHA-256 of the file, the
// tree is exactly the one a REAPI client would build.
type Encoded struct {
	Command []byte // the Command message
	Action  []byte // the Action message
	Key     Digest // the digest of Action: the entry's key
	// Outputs are the action's outputs, sorted and without repeats, as
	// the Command lists them.
	Outputs []string
}

// Encode writes a as REAPI messages. It fails when a path is absolute or
// leaves the base directory, when two inputs of one path differ, or when a
// string is not UTF-8 (the messages' strings must be).
func Encode(a *Action) (*Encoded, error) {
	if len(a.Argvs) == 0 {
		return nil, fmt.Errorf("cache: action has no command")
	}
	if err := checkUTF8(a); err != nil {
		return nil, err
	}
	if err := CheckPaths(a); err != nil {
		return nil, err
	}
	outputs := slices.Clone(a.Outputs)
	slices.Sort(outputs)
	outputs = slices.Compact(outputs)

	root, err := inputRoot(a.Inputs)
	if err != nil {
		return nil, err
	}
	cmd := command(a, outputs)
	cd := DigestOf(cmd)
	var act []byte
	act = appendDigestField(act, 1, cd)
	act = appendDigestField(act, 2, root)
	return &Encoded{Command: cmd, Action: act, Key: DigestOf(act), Outputs: outputs}, nil
}

// command writes the Command message.
func command(a *Action, outputs []string) []byte {
	var b []byte
	for i, argv := range a.Argvs {
		if i > 0 {
			b = protowire.AppendTag(b, 1, protowire.BytesType)
			b = protowire.AppendString(b, "&&")
		}
		for _, arg := range argv {
			b = protowire.AppendTag(b, 1, protowire.BytesType)
			b = protowire.AppendString(b, arg)
		}
	}
	type env struct{ name, value string }
	envs := make([]env, 0, len(a.Tools)+2)
	if len(a.Argvs) > 1 {
		lens := make([]string, len(a.Argvs))
		for i, argv := range a.Argvs {
			lens[i] = strconv.Itoa(len(argv))
		}
		envs = append(envs, env{"SYCBUILD_ARGV_LENGTHS", strings.Join(lens, ",")})
	}
	for i, t := range a.Tools {
		envs = append(envs, env{"SYCBUILD_TOOL_" + strconv.Itoa(i), t})
	}
	envs = append(envs, env{"SYCBUILD_KEY_VERSION", KeyVersion})
	slices.SortFunc(envs, func(x, y env) int { return strings.Compare(x.name, y.name) })
	for _, e := range envs {
		var m []byte
		m = protowire.AppendTag(m, 1, protowire.BytesType)
		m = protowire.AppendString(m, e.name)
		if e.value != "" {
			m = protowire.AppendTag(m, 2, protowire.BytesType)
			m = protowire.AppendString(m, e.value)
		}
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	for _, o := range outputs {
		b = protowire.AppendTag(b, 7, protowire.BytesType)
		b = protowire.AppendString(b, o)
	}
	return b
}

// dirNode is one directory of the input tree.
type dirNode struct {
	files map[string]Digest
	dirs  map[string]*dirNode
}

// inputRoot builds the input tree and returns its root's digest.
func inputRoot(inputs []Input) (Digest, error) {
	root := &dirNode{}
	for _, in := range inputs {
		if in.Hash == "" || in.Size < 0 {
			return Digest{}, fmt.Errorf("cache: input %q has no hash or size", in.Path)
		}
		parts := strings.Split(in.Path, "/")
		d := root
		for i, p := range parts[:len(parts)-1] {
			if _, ok := d.files[p]; ok {
				return Digest{}, fmt.Errorf("cache: input %q is under file %q", in.Path, strings.Join(parts[:i+1], "/"))
			}
			sub := d.dirs[p]
			if sub == nil {
				if d.dirs == nil {
					d.dirs = map[string]*dirNode{}
				}
				sub = &dirNode{}
				d.dirs[p] = sub
			}
			d = sub
		}
		name := parts[len(parts)-1]
		if _, ok := d.dirs[name]; ok {
			return Digest{}, fmt.Errorf("cache: input %q is also a directory of inputs", in.Path)
		}
		dg := Digest{in.Hash, in.Size}
		if old, ok := d.files[name]; ok && old != dg {
			return Digest{}, fmt.Errorf("cache: input %q is listed twice with different contents", in.Path)
		}
		if d.files == nil {
			d.files = map[string]Digest{}
		}
		d.files[name] = dg
	}
	return DigestOf(root.directory()), nil
}

// directory writes d as a Directory message: files, then directories,
// each sorted by name.
func (d *dirNode) directory() []byte {
	var b []byte
	for _, name := range sortedKeys(d.files) {
		var m []byte
		m = protowire.AppendTag(m, 1, protowire.BytesType)
		m = protowire.AppendString(m, name)
		m = appendDigestField(m, 2, d.files[name])
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	for _, name := range sortedKeys(d.dirs) {
		var m []byte
		m = protowire.AppendTag(m, 1, protowire.BytesType)
		m = protowire.AppendString(m, name)
		m = appendDigestField(m, 2, DigestOf(d.dirs[name].directory()))
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendDigestField appends d as the message field num.
func appendDigestField(b []byte, num protowire.Number, d Digest) []byte {
	var m []byte
	m = protowire.AppendTag(m, 1, protowire.BytesType)
	m = protowire.AppendString(m, d.Hash)
	if d.Size != 0 {
		m = protowire.AppendTag(m, 2, protowire.VarintType)
		m = protowire.AppendVarint(m, uint64(d.Size))
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, m)
}

// checkUTF8 reports a string of a that is not UTF-8.
func checkUTF8(a *Action) error {
	bad := func(what, s string) error {
		return fmt.Errorf("cache: %s %q is not UTF-8", what, s)
	}
	for _, t := range a.Tools {
		if !utf8.ValidString(t) {
			return bad("tool", t)
		}
	}
	for _, argv := range a.Argvs {
		for _, arg := range argv {
			if !utf8.ValidString(arg) {
				return bad("argument", arg)
			}
		}
	}
	for _, in := range a.Inputs {
		if !utf8.ValidString(in.Path) || !utf8.ValidString(in.Hash) {
			return bad("input", in.Path)
		}
	}
	for _, o := range a.Outputs {
		if !utf8.ValidString(o) {
			return bad("output", o)
		}
	}
	return nil
}

// CheckPaths says why a cannot be keyed by where its files are, or returns
// nil: every path must be clean and relative, and no output may leave the
// base directory (an input may lie beside it, "../src/a.bc"). A build
// leaves out of the cache the actions it fails, which name a file by its
// absolute path: their keys would hold where the project lives.
func CheckPaths(a *Action) error {
	for _, o := range a.Outputs {
		if err := checkPath("output", o, false); err != nil {
			return err
		}
	}
	for _, in := range a.Inputs {
		if err := checkPath("input", in.Path, true); err != nil {
			return err
		}
	}
	return nil
}

// checkPath reports a path that is not clean and relative, or, unless up,
// one that leaves the base directory. An input may lie beside the base
// directory ("../src/a.bc"): in the input tree ".." is then a directory's
// name, which identifies the file as well as any name would.
func checkPath(what, p string, up bool) error {
	switch {
	case p == "":
		return fmt.Errorf("cache: empty %s path", what)
	case path.IsAbs(p) || strings.HasPrefix(p, `\`) || len(p) > 1 && p[1] == ':':
		return fmt.Errorf("cache: %s path %q is absolute", what, p)
	case path.Clean(p) != p || p == ".":
		return fmt.Errorf("cache: %s path %q is not clean", what, p)
	case !up && (p == ".." || strings.HasPrefix(p, "../")):
		return fmt.Errorf("cache: %s path %q leaves the base directory", what, p)
	}
	return nil
}
