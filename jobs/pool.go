// Package jobs holds what every process sycbuild starts goes through: the
// pool of job tokens (a private counting semaphore, or make's jobserver)
// and the process runner (its own process group, a parent-death signal,
// a blocking wait that holds no thread, the child's resource usage).
// The build executor (graph) and llvm-foreach (foreach) both use them, so a
// build has one pool and one way of running a command.
package jobs

import (
	"context"
	"fmt"
)

// Pool hands out job tokens: every process sycbuild starts, and every
// in-process tool it runs, holds one while it runs. A build has one pool;
// fan-out jobs take their tokens from it too, so -j N bounds everything.
type Pool interface {
	// Acquire blocks until a token is free, or ctx is done (then it returns
	// the context's error). Waiting never polls.
	Acquire(ctx context.Context) (Token, error)
	// TryAcquire takes a token if one is free at once, and never waits
	// (under make's jobserver only the implicit token can be had so).
	TryAcquire() (Token, bool)
	// Release returns a token.
	Release(Token)
	// Size is the number of tokens, or 0 when the pool does not know it
	// (make's jobserver).
	Size() int
	// Close returns the pool's resources; every token must be released.
	Close() error
	// String describes the pool for messages ("-j 4", "make's jobserver").
	String() string
}

// Token is one job slot.
type Token struct {
	slot     int  // a small number, stable while held, for trace lanes
	b        byte // the jobserver byte to write back
	implicit bool // the jobserver token every make child holds implicitly
}

// Slot is the token's lane number (0 ≤ Slot < the number of tokens).
func (t Token) Slot() int { return t.slot }

// NewPool returns a private pool of n tokens (at least one).
func NewPool(n int) Pool {
	n = max(n, 1)
	p := &localPool{n: n, free: make(chan int, n)}
	for i := 0; i < n; i++ {
		p.free <- i
	}
	return p
}

// localPool is a counting semaphore whose elements are the free slots.
type localPool struct {
	n    int
	free chan int
}

func (p *localPool) Acquire(ctx context.Context) (Token, error) {
	if ctx.Err() != nil {
		return Token{}, context.Cause(ctx)
	}
	select {
	case s := <-p.free:
		return Token{slot: s}, nil
	case <-ctx.Done():
		return Token{}, context.Cause(ctx)
	}
}

func (p *localPool) TryAcquire() (Token, bool) {
	select {
	case s := <-p.free:
		return Token{slot: s}, true
	default:
		return Token{}, false
	}
}

func (p *localPool) Release(t Token) { p.free <- t.slot }

func (p *localPool) Size() int { return p.n }

func (p *localPool) Close() error { return nil }

func (p *localPool) String() string { return fmt.Sprintf("-j %d", p.n) }
