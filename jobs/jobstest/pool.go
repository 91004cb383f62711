// Package jobstest holds a job pool for tests that counts what is done
// with its tokens, and a runner for tests that starts no process.
package jobstest

import (
	"context"
	"sync"

	"github.com/sycbuild/sycbuild/jobs"
)

// CountingPool wraps a pool and counts its tokens: how many are out, the
// most out at once, how many Acquire and TryAcquire calls got one and how
// many of them had to wait. With Unsized, Size says 0, as make's jobserver does.
type CountingPool struct {
	jobs.Pool
	Unsized bool

	mu                        sync.Mutex
	out, peak, acquired, wait int
}

// Counts returns the tokens out now, the most out at once, the Acquire
// calls that got one, and those of them that waited.
func (p *CountingPool) Counts() (out, peak, acquired, waited int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out, p.peak, p.acquired, p.wait
}

func (p *CountingPool) Size() int {
	if p.Unsized {
		return 0
	}
	return p.Pool.Size()
}

func (p *CountingPool) Acquire(ctx context.Context) (jobs.Token, error) {
	tok, ok := p.Pool.TryAcquire()
	waited := !ok
	if !ok {
		var err error
		if tok, err = p.Pool.Acquire(ctx); err != nil {
			return tok, err
		}
	}
	p.mu.Lock()
	p.out++
	p.peak = max(p.peak, p.out)
	p.acquired++
	if waited {
		p.wait++
	}
	p.mu.Unlock()
	return tok, nil
}

// TryAcquire counts a token it got as an Acquire call that did not wait.
func (p *CountingPool) TryAcquire() (jobs.Token, bool) {
	tok, ok := p.Pool.TryAcquire()
	if ok {
		p.mu.Lock()
		p.out++
		p.peak = max(p.peak, p.out)
		p.acquired++
		p.mu.Unlock()
	}
	return tok, ok
}

func (p *CountingPool) Release(t jobs.Token) {
	p.mu.Lock()
	p.out--
	p.mu.Unlock()
	p.Pool.Release(t)
}
