package toolchain

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// OclocDevices returns the device names the ocloc at path (a name is
// looked up on PATH) accepts for -device, as its "compile --help" lists
// them, remembered by the executable's identity like its version: a build
// checks the config's devices before anything runs and queries ocloc only
// when it was installed or updated since. It returns nil when the help
// lists no devices (an ocloc whose help reads otherwise, or a stand-in):
// the names are then not checked.
func (c *VersionCache) OclocDevices(path string) ([]string, error) {
	exe, err := exec.LookPath(path)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return nil, err
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	// The devices live beside the version in the same file, under a key no
	// path has (a path is absolute).
	key := "ocloc-devices:" + real
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if !ok || e.size != fi.Size() || e.mtime != fi.ModTime().UnixNano() {
		// Run as named (an ocloc's name may matter to it), from a
		// directory of its own: an absolute path.
		if exe, err = filepath.Abs(exe); err != nil {
			return nil, err
		}
		e = versionEntry{fi.Size(), fi.ModTime().UnixNano(), strings.Join(queryOclocDevices(exe), ",")}
		c.mu.Lock()
		c.entries[key] = e
		c.dirty = true
		c.mu.Unlock()
	}
	if e.version == "" {
		return nil, nil
	}
	return strings.Split(e.version, ","), nil
}

// oclocDeviceList is the line of "ocloc compile --help" that lists the
// devices: "<device_type> can be: bdw, skl, …, xe-hpg, version  or
// hexadecimal value with 0x prefix".
var oclocDeviceList = regexp.MustCompile(`<device_type> can be:\s*([^\n]*)`)

// queryOclocDevices runs "ocloc compile --help" (which exits non-zero
// after printing the help) and returns the device names it lists; nil
// when it lists none.
func queryOclocDevices(exe string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	dir, err := os.MkdirTemp("", "sycbuild-ocloc-help-")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	// ocloc may write files into its working directory.
	out, _ := combinedOutput(ctx, dir, exe, "compile", "--help")
	return parseOclocDevices(string(out))
}

// parseOclocDevices reads the device names off ocloc's help text.
func parseOclocDevices(help string) []string {
	m := oclocDeviceList.FindStringSubmatch(help)
	if m == nil {
		return nil
	}
	list, _, _ := strings.Cut(m[1], " or ")
	var names []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		// "version" stands for an IP version (12.60.7), which
		// OclocDevice accepts by its form.
		if n != "" && n != "version" && !strings.ContainsAny(n, " \t<>") {
			names = append(names, n)
		}
	}
	return names
}

var (
	oclocIPVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)
	oclocDeviceID  = regexp.MustCompile(`^0[xX][0-9a-fA-F]+$`)
)

// OclocDevice reports whether ocloc, whose help lists the names known,
// accepts device for -device: a listed name, an IP version (12.60.7), a
// PCI device id (0x0bd5), or a range of them ("xe-hpg:xe-hpc"; either end
// may be left open).
func OclocDevice(device string, known []string) bool {
	one := func(d string) bool {
		return slices.Contains(known, d) || oclocIPVersion.MatchString(d) || oclocDeviceID.MatchString(d)
	}
	if from, to, ok := strings.Cut(device, ":"); ok {
		return (from != "" || to != "") && (from == "" || one(from)) && (to == "" || one(to))
	}
	return one(device)
}
