package graph

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"

	"github.com/sycbuild/sycbuild/cache"
)

// The shared cache (Options.Cache) is asked for a unit's outputs after the
// build log said the unit must run, and is given them after it ran. Only
// external commands are cached: an in-process tool costs less than looking
// it up. A unit whose files are not all relative paths inside the base
// directory is neither looked up nor stored (its key would hold where the
// project lives).

// cacheAction is a unit as the shared cache keys it: what the build log's
// key holds.
func cacheAction(u *unit) *cache.Action {
	if u.main != nil {
		return nil
	}
	a := &cache.Action{Argvs: u.argvs, Outputs: u.outputs()}
	for _, t := range u.tools {
		a.Tools = append(a.Tools, t.identity())
	}
	for _, in := range u.parts.inputs {
		a.Inputs = append(a.Inputs, cache.Input{Path: in.path, Hash: in.hash, Size: in.size})
	}
	if cache.CheckPaths(a) != nil {
		return nil
	}
	return a
}

// restore gets a unit's outputs from the cache. It returns what the unit
// printed and the event's Cache text ("local hit", "remote miss", …), or
// ok false on a miss.
func (b *builder) restore(ctx context.Context, u *unit, ca *cache.Action) (text []byte, how string, ok bool) {
	for _, o := range u.outputs() {
		b.prepareDir(path.Dir(o))
	}
	r, err := b.opt.Cache.Get(ctx, ca, b.base())
	b.log.forget(u.outputs()...)
	if err != nil {
		b.cacheWarning(err)
	}
	if err != nil || r == nil {
		if b.opt.RemoteCache {
			return nil, "remote miss", false
		}
		return nil, "local miss", false
	}
	if bad := b.checkRestored(u); bad != "" {
		// A cache entry is trusted no more than a tool: outputs that a
		// command's run would have failed with are a miss, said once,
		// and the command's own outputs replace the entry.
		for _, o := range u.outputs() {
			os.Remove(b.path(o))
		}
		b.obs.Message(fmt.Sprintf("sycbuild: warning: cache: %s: restored %s; running the command instead", u.event.Desc, bad))
		if b.opt.RemoteCache {
			return nil, "remote miss", false
		}
		return nil, "local miss", false
	}
	b.mu.Lock()
	if r.Source == cache.Remote {
		b.res.RemoteHits++
	} else {
		b.res.LocalHits++
	}
	b.mu.Unlock()
	return escapeControls(r.Output), r.Source.String() + " hit", true
}

// escapeControls returns text with its control characters other than
// line breaks and tabs written as \xNN: what a cache entry says a command
// printed is replayed to a terminal, and any client of a shared cache can
// store an entry whose text holds escape sequences.
func escapeControls(text []byte) []byte {
	clean := true
	for _, c := range text {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return text
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(text)+16)
	for _, c := range text {
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			out = append(out, '\\', 'x', hex[c>>4], hex[c&15])
			continue
		}
		out = append(out, c)
	}
	return out
}

// store gives the cache the outputs of a unit that ran.
func (b *builder) store(ctx context.Context, ca *cache.Action, text []byte) {
	if err := b.opt.Cache.Put(ctx, ca, &cache.Result{Output: text}, b.base()); err != nil {
		b.cacheWarning(err)
	}
}

// cacheWarning tells the user, once per build, that the cache failed.
func (b *builder) cacheWarning(err error) {
	b.warnOnce.Do(func() { b.obs.Message("sycbuild: warning: cache: " + err.Error()) })
}

// base is the directory the cache's paths are relative to.
func (b *builder) base() string {
	if b.opt.Dir == "" {
		return "."
	}
	return b.opt.Dir
}

// checkRestored checks a unit's restored outputs as runCommand checks a
// command's: each must be a regular file, not empty, and pass its tool's
// Check. It returns what is wrong with the first that is not, or "".
func (b *builder) checkRestored(u *unit) string {
	for k, outs := range u.outs {
		var check func([]byte, int64, io.ReaderAt) error
		if k < len(u.tools) && u.tools[k] != nil {
			check = u.tools[k].Check
		}
		for _, o := range outs {
			_, bad, err := inspect(b.path(o), check, false)
			switch {
			case err != nil:
				return o + ": " + err.Error()
			case bad != "":
				return o + bad
			}
		}
	}
	return ""
}
