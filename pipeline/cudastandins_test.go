package pipeline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cudaStandIns writes stand-ins for CUDA's ptxas and fatbinary into a new
// directory, for machines without the CUDA toolkit (CI among them), and
// returns the directory and the log of their runs. They check the command
// lines sycbuild gives them (toolchain.PtxasArgs and FatbinaryArgs for arch,
// ptxas's last argument ptxasExtra, the config's option) and their inputs
// (PTX for arch; the cubin the ptxas stand-in wrote; outputs may be
// sycbuild's temporary names beside the final ones), and write what passes
// sycbuild's output checks: a 64-bit ELF header followed by the PTX in
// place of a cubin, and a fat binary header over the cubin and the PTX.
// What they write is not what NVIDIA's tools would: a test using them
// says so (testenv.NotChecked).
func cudaStandIns(t *testing.T, arch, ptxasExtra string) (dir string, log *cudaLog) {
	t.Helper()
	dir = t.TempDir()
	log = &cudaLog{t: t, path: filepath.Join(dir, "runs.log")}
	sm := strings.TrimPrefix(arch, "sm_")
	common := "#!/bin/sh\n" +
		"fail() { echo \"$0 (stand-in): $*\" >&2; exit 1; }\n" +
		"[ \"$1\" = --version ] && { echo \"$(basename \"$0\") stand-in\"; exit 0; }\n"
	ptxas := common +
		"[ $# -eq 5 ] || fail \"want 5 arguments, got $#: $*\"\n" +
		"[ \"$1\" = -arch=" + arch + " ] || fail \"want -arch=" + arch + " first, got $1\"\n" +
		"case \"$2\" in *.ptx) ;; *) fail \"want a .ptx input second, got $2\" ;; esac\n" +
		"[ \"$3\" = -o ] || fail \"want -o third, got $3\"\n" +
		"case \"$4\" in *.cubin | *.cubin.tmp*) ;; *) fail \"want a .cubin output fourth, got $4\" ;; esac\n" +
		"[ \"$5\" = '" + ptxasExtra + "' ] || fail \"want the config's option " + ptxasExtra + " last, got $5\"\n" +
		"grep -q '^\\.version ' \"$2\" && grep -q '^\\.target " + arch + "' \"$2\" || fail \"$2 is not PTX for " + arch + "\"\n" +
		"{ printf '\\177ELF\\002\\001\\001'; head -c 57 /dev/zero; cat \"$2\"; } >\"$4\" || exit 1\n" +
		"echo \"ptxas $2\" >>'" + log.path + "'\n"
	fatbinary := common +
		"[ $# -eq 4 ] || fail \"want 4 arguments, got $#: $*\"\n" +
		"[ \"$1\" = -64 ] || fail \"want -64 first, got $1\"\n" +
		"case \"$2\" in --create=*.fatbin | --create=*.fatbin.tmp*) out=${2#--create=} ;; *) fail \"want --create=<file>.fatbin second, got $2\" ;; esac\n" +
		"case \"$3\" in --image3=kind=elf,sm=" + sm + ",file=*.cubin) cubin=${3#*,file=} ;; *) fail \"want the cubin for sm " + sm + " third, got $3\" ;; esac\n" +
		"case \"$4\" in --image3=kind=ptx,sm=" + sm + ",file=*.ptx) ptx=${4#*,file=} ;; *) fail \"want the PTX for sm " + sm + " fourth, got $4\" ;; esac\n" +
		"[ \"$(head -c 4 \"$cubin\" | tail -c 3)\" = ELF ] || fail \"$cubin is not an ELF object\"\n" +
		"grep -q '^\\.target " + arch + "' \"$ptx\" || fail \"$ptx is not PTX for " + arch + "\"\n" +
		// le N BYTES writes N in BYTES little-endian bytes.
		"le() { v=$1; i=0; while [ $i -lt $2 ]; do printf \"\\\\$(printf %03o $((v % 256)))\"; v=$((v / 256)); i=$((i + 1)); done; }\n" +
		"n=$(cat \"$cubin\" \"$ptx\" | wc -c)\n" +
		// Magic 0xba55ed50, version 1, header size 16, then the size of
		// what follows.
		"{ printf '\\120\\355\\125\\272'; le 1 2; le 16 2; le \"$n\" 8; cat \"$cubin\" \"$ptx\"; } >\"$out\" || exit 1\n" +
		"echo \"fatbinary $out\" >>'" + log.path + "'\n"
	for name, script := range map[string]string{"ptxas": ptxas, "fatbinary": fatbinary} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir, log
}

// cudaLog is the log of the CUDA stand-ins' runs: "<tool> <file>" a line.
type cudaLog struct {
	t    *testing.T
	path string
}

// count returns how many times tool ran.
func (l *cudaLog) count(tool string) int {
	b, err := os.ReadFile(l.path)
	if err != nil && !os.IsNotExist(err) {
		l.t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, tool+" ") {
			n++
		}
	}
	return n
}
