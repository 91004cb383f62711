// Package cache is sycbuild's content-addressed action cache, behind one
// interface: the build executor (graph) asks it for the outputs of an
// action before running the action, and gives it the outputs of an action
// that ran. cache/local keeps entries in a directory shared by every build
// of a user; cache/remote keeps them on a Remote Execution API server
// (ActionCache + ContentAddressableStorage + ByteStream); Tiered puts the
// two together.
//
// An Action holds exactly what the build's own up-to-date check keys on —
// the tools' identities, the full commands, the contents of every input —
// and never an absolute path: two checkouts of one project in different
// directories share entries. Both caches key an entry by the digest of the
// action written as the Remote Execution API's Action message (see Encode),
// so an entry has the same key locally and on the server.
package cache

import "context"

// Action is one cached unit: an action of the build graph, or one item's
// chain of a fan-out.
type Action struct {
	// Tools are the identities of the programs run, one per command: the
	// path as run and the tool's version text (or a hash of it).
	Tools []string
	// Argvs are the commands, in order (a fan-out job's chain has several).
	// Paths in them are relative to the build's base directory.
	Argvs [][]string
	// Inputs are the files read (lists and tables with the files they
	// name), each with a hash of its contents, in a fixed order.
	Inputs []Input
	// Outputs are the files the action writes, relative to the base
	// directory.
	Outputs []string
}

// Input is one file an action reads.
type Input struct {
	Path string // relative to the base directory
	Hash string // a hash of its contents (hex); the full SHA-256 makes the key a true REAPI input tree
	Size int64  // its size in bytes
}

// Result is what a cached action produced besides its files.
type Result struct {
	// Output is what the commands printed (standard output and error
	// together), as the build shows it.
	Output []byte
	// Source says which cache a Get found the entry in.
	Source Source
}

// Source is where a cache hit came from.
type Source uint8

const (
	Local  Source = iota // the local shared cache
	Remote               // the remote (REAPI) cache
)

func (s Source) String() string {
	if s == Remote {
		return "remote"
	}
	return "local"
}

// Cache stores and retrieves the outputs of actions.
type Cache interface {
	// Get looks a up. On a hit it writes every one of a's outputs under
	// dir, each atomically and checked against its digest, and returns
	// the result. A miss is (nil, nil): so is an entry that cannot be used
	// (a blob missing or not matching its digest), after a warning through
	// the cache's own reporting; then no output has been written. An error
	// is something the build must hear of: a that cannot be keyed (an
	// absolute path), or an output that cannot be written under dir.
	Get(ctx context.Context, a *Action, dir string) (*Result, error)
	// Put stores the result of a that ran and succeeded; its outputs are
	// read from under dir. Put may return before the upload ends (see
	// Close); a, r and the output files must not change until Close.
	Put(ctx context.Context, a *Action, r *Result, dir string) error
	// Close waits for pending uploads (bounded by the cache's timeout) and
	// releases the cache's resources.
	Close() error
}

// Counters count what a cache did during a build, for the build's summary.
// Each cache of this module has a Counters method.
type Counters struct {
	LocalHits  int64 // actions restored from the local cache
	RemoteHits int64 // actions restored from the remote cache
	Misses     int64 // lookups that found no usable entry
	Stored     int64 // results stored in the local cache
	Uploads    int64 // results uploaded to the remote cache
	Dropped    int64 // results not uploaded: queue full, or the remote gone
}

// Counted is a cache that counts what it did.
type Counted interface {
	Counters() Counters
}
