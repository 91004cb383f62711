package foreach

import "context"

// Pool hands out job tokens. Acquire blocks until a token is free or ctx is
// done (then it returns the context's error); Release returns a token.
type Pool interface {
	Acquire(ctx context.Context) error
	Release()
}

// NewPool returns a pool of n tokens (at least one).
func NewPool(n int) Pool {
	return make(tokens, max(n, 1))
}

// tokens is a counting semaphore: a buffered channel holds one element per
// token in use.
type tokens chan struct{}

func (t tokens) Acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	select {
	case t <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func (t tokens) Release() { <-t }
