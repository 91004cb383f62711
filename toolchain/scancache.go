package toolchain

import (
	"os"
	"strconv"
	"strings"
)

// ScanIR is ScanIR remembered: the result for an input whose size and
// modification time are those of the last scan, by the same sycbuild, is
// taken from the cache, so a no-op rebuild reads no input. Failed scans
// are not remembered.
func (c *VersionCache) ScanIR(path string) (*IRInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	self, err := c.SelfVersion()
	if err != nil {
		return ScanIR(path)
	}
	key := "ir:" + path
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.size == fi.Size() && e.mtime == fi.ModTime().UnixNano() {
		if info, ok := decodeInfo(path, self, e.version); ok {
			return info, nil
		}
	}
	info, err := ScanIR(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.entries[key] = versionEntry{fi.Size(), fi.ModTime().UnixNano(), encodeInfo(self, info)}
	c.dirty = true
	c.mu.Unlock()
	return info, nil
}

// encodeInfo writes an IRInfo as quoted fields on one line, after the
// version of the sycbuild that scanned it.
func encodeInfo(self string, i *IRInfo) string {
	return strings.Join([]string{strconv.Quote(self), strconv.FormatBool(i.Bitcode), strconv.Itoa(i.LLVM),
		strconv.Quote(i.Why), strconv.Quote(i.Triple), strconv.FormatBool(i.Kernels), strconv.FormatBool(i.ExternalDefs)}, " ")
}

func decodeInfo(path, self, s string) (*IRInfo, bool) {
	var v [7]string
	for k := range v {
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, false
			}
			v[k], _ = strconv.Unquote(q)
			s = s[len(q):]
		} else {
			w, rest, _ := strings.Cut(s, " ")
			v[k], s = w, rest
		}
	}
	info := &IRInfo{Path: path, Why: v[3], Triple: v[4]}
	var errs [4]error
	info.Bitcode, errs[0] = strconv.ParseBool(v[1])
	info.LLVM, errs[1] = strconv.Atoi(v[2])
	info.Kernels, errs[2] = strconv.ParseBool(v[5])
	info.ExternalDefs, errs[3] = strconv.ParseBool(v[6])
	for _, err := range errs {
		if err != nil {
			return nil, false
		}
	}
	return info, v[0] == self && s == ""
}
