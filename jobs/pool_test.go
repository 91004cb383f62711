package jobs

import (
	"context"
	"sync"
	"testing"
	"time"
)

// peakConcurrency runs n workers that each hold a token from pool and
// returns the most that held one at once. The first workers to get a
// token keep it until want of them hold one and every other worker is
// blocked in Acquire: so want hold at once, and a token too many is
// counted. No worker sleeps; a pool that never lets want workers run holds
// the barrier shut until a guard (against hanging the test) opens it, and
// the peak tells.
func peakConcurrency(t *testing.T, pool Pool, n, want int) int {
	t.Helper()
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	waiting, running, peak, left, released := 0, 0, 0, n, false
	guard := time.AfterFunc(time.Minute, func() {
		mu.Lock()
		released = true
		cond.Broadcast()
		mu.Unlock()
	})
	defer guard.Stop()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			waiting++
			cond.Broadcast()
			mu.Unlock()
			tok, err := pool.Acquire(context.Background())
			mu.Lock()
			defer mu.Unlock()
			waiting--
			if err != nil {
				t.Error(err)
				left--
				return
			}
			running++
			peak = max(peak, running)
			cond.Broadcast()
			for !released && (running < want || running+waiting < left) {
				cond.Wait()
			}
			released = true
			cond.Broadcast()
			running--
			left--
			pool.Release(tok)
		}()
	}
	wg.Wait()
	return peak
}

// TestPoolBound: a pool of n tokens lets n hold one at once, never n+1.
func TestPoolBound(t *testing.T) {
	for _, n := range []int{1, 3, 5} {
		if peak := peakConcurrency(t, NewPool(n), 12, n); peak != n {
			t.Errorf("%d held a token at once with -j %d", peak, n)
		}
	}
}

// TestTryAcquire: TryAcquire takes only free tokens and never waits.
func TestTryAcquire(t *testing.T) {
	p := NewPool(2)
	a, ok1 := p.TryAcquire()
	b, ok2 := p.TryAcquire()
	_, ok3 := p.TryAcquire()
	if !ok1 || !ok2 || ok3 {
		t.Fatalf("TryAcquire on a pool of 2: %v %v %v", ok1, ok2, ok3)
	}
	if a.Slot() == b.Slot() {
		t.Errorf("two tokens share slot %d", a.Slot())
	}
	p.Release(a)
	if _, ok := p.TryAcquire(); !ok {
		t.Error("a released token cannot be taken")
	}
}
