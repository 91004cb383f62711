package remote_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"testing"

	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
	"google.golang.org/protobuf/proto"

	"github.com/sycbuild/sycbuild/cache"
)

// TestEncodeIsCanonicalREAPI checks cache.Encode's hand-written messages
// against the official bindings: they parse as the REAPI Command and
// Action, hold what the documentation says, marshal back to the same bytes
// (so they are canonical), and the input root is the digest of the tree
// built here from the official Directory messages.
func TestEncodeIsCanonicalREAPI(t *testing.T) {
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	a := &cache.Action{
		Tools: []string{"ocloc 25.1 (sha 1234)", "", "llvm-spirv-15 15.0.7", "a", "b", "c", "d", "e", "f", "g", "h"},
		Argvs: [][]string{
			{"ocloc", "compile", "-file", "in/a.spv", "-device", "pvc", "-output", "out/a"},
			{"touch", "&&", "out/b"},
			{"llvm-spirv-15", "-o", "out/c.spv", "in/c.bc"},
		},
		Inputs: []cache.Input{
			{Path: "in/a.spv", Hash: sum("a"), Size: 1},
			{Path: "in/c.bc", Hash: sum("cc"), Size: 2},
			{Path: "z", Hash: sum(""), Size: 0},
			{Path: "in/sub/deep/x.txt", Hash: sum("xyz"), Size: 3},
			{Path: "../src/k.cpp", Hash: sum("k"), Size: 1},
			{Path: "in/a.spv", Hash: sum("a"), Size: 1}, // listed twice
			{Path: "Z", Hash: sum("Z"), Size: 1},
		},
		Outputs: []string{"out/c.spv", "out/a", "out/b", "out/a"},
	}
	enc, err := cache.Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	var cmd repb.Command
	if err := proto.Unmarshal(enc.Command, &cmd); err != nil {
		t.Fatalf("Command does not parse: %v", err)
	}
	var act repb.Action
	if err := proto.Unmarshal(enc.Action, &act); err != nil {
		t.Fatalf("Action does not parse: %v", err)
	}
	det := proto.MarshalOptions{Deterministic: true}
	for _, m := range []struct {
		name string
		msg  proto.Message
		enc  []byte
	}{{"Command", &cmd, enc.Command}, {"Action", &act, enc.Action}} {
		b, err := det.Marshal(m.msg)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, m.enc) {
			t.Errorf("%s is not canonical:\n got %x\nwant %x", m.name, m.enc, b)
		}
	}
	wantArgs := slices.Concat(a.Argvs[0], []string{"&&"}, a.Argvs[1], []string{"&&"}, a.Argvs[2])
	if !slices.Equal(cmd.Arguments, wantArgs) {
		t.Errorf("arguments = %q, want %q", cmd.Arguments, wantArgs)
	}
	env := map[string]string{}
	var names []string
	for _, e := range cmd.EnvironmentVariables {
		env[e.Name] = e.Value
		names = append(names, e.Name)
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("environment not sorted by name: %q", names)
	}
	if env["SYCBUILD_ARGV_LENGTHS"] != "8,3,4" || env["SYCBUILD_TOOL_0"] != a.Tools[0] || env["SYCBUILD_TOOL_10"] != "h" || env["SYCBUILD_KEY_VERSION"] != cache.KeyVersion {
		t.Errorf("environment = %v", env)
	}
	if _, ok := env["SYCBUILD_TOOL_1"]; !ok {
		t.Errorf("the empty tool identity is missing from the environment")
	}
	if want := []string{"out/a", "out/b", "out/c.spv"}; !slices.Equal(cmd.OutputPaths, want) || !slices.Equal(enc.Outputs, want) {
		t.Errorf("output_paths = %q, Outputs = %q, want %q", cmd.OutputPaths, enc.Outputs, want)
	}
	if got := act.CommandDigest; got.Hash != cache.DigestOf(enc.Command).Hash || got.SizeBytes != int64(len(enc.Command)) {
		t.Errorf("command_digest = %v", got)
	}
	if enc.Key != cache.DigestOf(enc.Action) {
		t.Errorf("Key = %v, want the digest of Action", enc.Key)
	}

	// The input tree, built from the official messages.
	type tree struct {
		files map[string]*repb.FileNode
		dirs  map[string]*tree
	}
	root := &tree{files: map[string]*repb.FileNode{}, dirs: map[string]*tree{}}
	for _, in := range a.Inputs {
		parts := strings.Split(in.Path, "/")
		d := root
		for _, p := range parts[:len(parts)-1] {
			if d.dirs[p] == nil {
				d.dirs[p] = &tree{files: map[string]*repb.FileNode{}, dirs: map[string]*tree{}}
			}
			d = d.dirs[p]
		}
		d.files[parts[len(parts)-1]] = &repb.FileNode{Name: parts[len(parts)-1], Digest: &repb.Digest{Hash: in.Hash, SizeBytes: in.Size}}
	}
	var digest func(d *tree) *repb.Digest
	digest = func(d *tree) *repb.Digest {
		var msg repb.Directory
		for _, f := range d.files {
			msg.Files = append(msg.Files, f)
		}
		slices.SortFunc(msg.Files, func(x, y *repb.FileNode) int { return strings.Compare(x.Name, y.Name) })
		for name, sub := range d.dirs {
			msg.Directories = append(msg.Directories, &repb.DirectoryNode{Name: name, Digest: digest(sub)})
		}
		slices.SortFunc(msg.Directories, func(x, y *repb.DirectoryNode) int { return strings.Compare(x.Name, y.Name) })
		b, err := det.Marshal(&msg)
		if err != nil {
			t.Fatal(err)
		}
		d2 := cache.DigestOf(b)
		return &repb.Digest{Hash: d2.Hash, SizeBytes: d2.Size}
	}
	if want := digest(root); !proto.Equal(act.InputRootDigest, want) {
		t.Errorf("input_root_digest = %v, want %v", act.InputRootDigest, want)
	}
}

// TestEncodeKeys checks what changes the key and what does not.
func TestEncodeKeys(t *testing.T) {
	base := func() *cache.Action {
		return &cache.Action{
			Tools:   []string{"t 1"},
			Argvs:   [][]string{{"t", "-o", "out/x", "in/a"}},
			Inputs:  []cache.Input{{Path: "in/a", Hash: strings.Repeat("a", 64), Size: 3}, {Path: "in/b", Hash: strings.Repeat("b", 64), Size: 3}},
			Outputs: []string{"out/x", "out/y"},
		}
	}
	key := func(a *cache.Action) cache.Digest {
		t.Helper()
		enc, err := cache.Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		return enc.Key
	}
	k0 := key(base())
	same := []func(*cache.Action){
		func(a *cache.Action) { a.Inputs[0], a.Inputs[1] = a.Inputs[1], a.Inputs[0] },
		func(a *cache.Action) { a.Outputs = []string{"out/y", "out/x"} },
	}
	for i, f := range same {
		a := base()
		f(a)
		if key(a) != k0 {
			t.Errorf("change %d changed the key", i)
		}
	}
	differ := []func(*cache.Action){
		func(a *cache.Action) { a.Tools[0] = "t 2" },
		func(a *cache.Action) { a.Argvs[0][1] = "-O" },
		func(a *cache.Action) {
			a.Argvs = [][]string{{"t", "-o"}, {"out/x", "in/a"}}
			a.Tools = append(a.Tools, "")
		},
		func(a *cache.Action) { a.Inputs[0].Hash = strings.Repeat("c", 64) },
		func(a *cache.Action) { a.Inputs[0].Size = 4 },
		func(a *cache.Action) { a.Inputs[0].Path = "in/c" },
		func(a *cache.Action) { a.Outputs = a.Outputs[:1] },
	}
	for i, f := range differ {
		a := base()
		f(a)
		if key(a) == k0 {
			t.Errorf("change %d left the key as it was", i)
		}
	}
	bad := []func(*cache.Action){
		func(a *cache.Action) { a.Inputs[0].Path = "/abs/in/a" },
		func(a *cache.Action) { a.Outputs[0] = "../out/x" },
		func(a *cache.Action) { a.Outputs[0] = "/tmp/x" },
		func(a *cache.Action) { a.Outputs[0] = "out//x" },
		func(a *cache.Action) { a.Inputs[1].Path = "in/a/b" },
		func(a *cache.Action) { a.Inputs[1].Path = "in" },
		func(a *cache.Action) { a.Inputs[1].Path = "in/a"; a.Inputs[1].Size = 9 },
		func(a *cache.Action) { a.Inputs[1].Hash = "" },
		func(a *cache.Action) { a.Argvs = nil },
		func(a *cache.Action) { a.Argvs[0][1] = "\xff" },
		func(a *cache.Action) { a.Outputs[0] = "out/\xfe" },
	}
	for i, f := range bad {
		a := base()
		f(a)
		if _, err := cache.Encode(a); err == nil {
			t.Errorf("bad action %d encoded without an error", i)
		} else if !strings.HasPrefix(err.Error(), "cache: ") {
			t.Errorf("bad action %d: error %q", i, err)
		}
	}
}

// FuzzEncodeCanonical: whatever cache.Encode accepts parses as the REAPI
// Command and Action and marshals back to the same bytes.
func FuzzEncodeCanonical(f *testing.F) {
	f.Add("in/a.bc", "out/a.o", "llc-19 19.1", "-O2", "in/b/c.bc", int64(3))
	f.Add("../src/a", "out/x", "", "&&", "z", int64(1<<40))
	f.Fuzz(func(t *testing.T, in1, out, tool, arg, in2 string, size int64) {
		a := &cache.Action{
			Tools:   []string{tool, ""},
			Argvs:   [][]string{{tool, arg}, {arg, in1}},
			Inputs:  []cache.Input{{Path: in1, Hash: "ab", Size: size}, {Path: in2, Hash: "cd", Size: 1}},
			Outputs: []string{out, "o"},
		}
		enc, err := cache.Encode(a)
		if err != nil {
			return
		}
		det := proto.MarshalOptions{Deterministic: true}
		var cmd repb.Command
		var act repb.Action
		for _, m := range []struct {
			msg proto.Message
			b   []byte
		}{{&cmd, enc.Command}, {&act, enc.Action}} {
			if err := proto.Unmarshal(m.b, m.msg); err != nil {
				t.Fatalf("does not parse: %v", err)
			}
			b, err := det.Marshal(m.msg)
			if err != nil || !bytes.Equal(b, m.b) {
				t.Fatalf("not canonical: %x, want %x (%v)", m.b, b, err)
			}
		}
	})
}
