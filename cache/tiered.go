package cache

import (
	"context"
	"errors"
	"sync/atomic"
)

// tiered is a local cache in front of a remote one.
type tiered struct {
	local, remote Cache
	misses        atomic.Int64
}

// Tiered returns a cache that looks an action up in local, then in remote,
// and stores a remote hit in local too; Put stores in both. Either may be
// nil, and then Tiered returns the other.
func Tiered(local, remote Cache) Cache {
	switch {
	case local == nil:
		return remote
	case remote == nil:
		return local
	}
	return &tiered{local: local, remote: remote}
}

func (t *tiered) Get(ctx context.Context, a *Action, dir string) (*Result, error) {
	r, err := t.local.Get(ctx, a, dir)
	if r != nil || err != nil {
		return r, err
	}
	r, err = t.remote.Get(ctx, a, dir)
	if err != nil {
		return nil, err
	}
	if r == nil {
		t.misses.Add(1)
		return nil, nil
	}
	// A local cache that cannot store the entry has said so itself; the
	// outputs are in place, so the hit stands.
	t.local.Put(ctx, a, r, dir)
	return r, nil
}

func (t *tiered) Put(ctx context.Context, a *Action, r *Result, dir string) error {
	return errors.Join(t.local.Put(ctx, a, r, dir), t.remote.Put(ctx, a, r, dir))
}

func (t *tiered) Close() error {
	return errors.Join(t.remote.Close(), t.local.Close())
}

// Counters returns the local cache's hits and stores, the remote cache's
// hits and uploads, and the lookups that neither answered.
func (t *tiered) Counters() Counters {
	var c Counters
	if l, ok := t.local.(Counted); ok {
		lc := l.Counters()
		c.LocalHits, c.Stored = lc.LocalHits, lc.Stored
	}
	if r, ok := t.remote.(Counted); ok {
		rc := r.Counters()
		c.RemoteHits, c.Uploads, c.Dropped = rc.RemoteHits, rc.Uploads, rc.Dropped
	}
	c.Misses = t.misses.Load()
	return c
}
