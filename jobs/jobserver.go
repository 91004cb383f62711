package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The GNU make jobserver protocol: make creates a pipe (make ≤ 4.3:
// "--jobserver-auth=R,W", two inherited file descriptors) or a named FIFO
// (make ≥ 4.4: "--jobserver-auth=fifo:PATH") holding one byte per free job
// slot beyond the first, and passes it in MAKEFLAGS. A child that wants to
// run jobs in parallel holds one implicit slot (the one make started it
// with), reads a byte for every further job, and writes that byte back when
// the job ends. sycbuild is such a child: under "make -j8" it and make
// together run at most 8 jobs.

// JobserverAuth returns the jobserver description found in MAKEFLAGS
// ("fifo:PATH" or "R,W"), or "" when there is none. The last one wins, as
// in make; the older spelling --jobserver-fds is accepted too.
func JobserverAuth(makeflags string) string {
	auth := ""
	for _, w := range strings.Fields(makeflags) {
		if v, ok := strings.CutPrefix(w, "--jobserver-auth="); ok {
			auth = v
		} else if v, ok := strings.CutPrefix(w, "--jobserver-fds="); ok {
			auth = v
		}
	}
	return auth
}

// OpenJobserver connects to the jobserver auth describes. It fails when the
// description is malformed or its pipe is not usable, which is what happens
// when make did not pass the jobserver to this command (the recipe is not
// marked '+' and does not mention $(MAKE)).
func OpenJobserver(auth string) (Pool, error) {
	var f *os.File
	if path, ok := strings.CutPrefix(auth, "fifo:"); ok {
		// O_RDWR never blocks on a FIFO, and Go polls FIFOs, so a pending
		// read can be interrupted by Close.
		var err error
		if f, err = os.OpenFile(path, os.O_RDWR, 0); err != nil {
			return nil, fmt.Errorf("jobserver fifo: %w", err)
		}
	} else {
		rs, ws, ok := strings.Cut(auth, ",")
		r, err1 := strconv.Atoi(rs)
		w, err2 := strconv.Atoi(ws)
		if !ok || err1 != nil || err2 != nil || r < 0 || w < 0 {
			return nil, fmt.Errorf("malformed jobserver description %q", auth)
		}
		for _, fd := range []int{r, w} {
			if err := checkPipe(fd); err != nil {
				return nil, err
			}
		}
		// Reopening the pipe through /proc gives this process its own open
		// file description, which Go can poll without changing the
		// blocking mode of the one make shares with its other children.
		f, err1 = os.OpenFile("/proc/self/fd/"+rs, os.O_RDWR, 0)
		if err1 != nil {
			return nil, fmt.Errorf("jobserver pipe: %w", err1)
		}
	}
	js := &jobserver{
		auth:     auth,
		f:        f,
		implicit: make(chan struct{}, 1),
		tokens:   make(chan byte),
		changed:  make(chan struct{}, 1),
		closed:   make(chan struct{}),
		slots:    map[int]bool{0: true},
	}
	js.implicit <- struct{}{}
	js.readerDone.Add(1)
	go js.reader()
	return js, nil
}

type jobserver struct {
	auth       string
	f          *os.File
	implicit   chan struct{} // holds the implicit token while it is free
	tokens     chan byte     // hands a byte read from make to a waiting Acquire
	changed    chan struct{} // signalled when demand changes
	closed     chan struct{}
	readerDone sync.WaitGroup

	mu     sync.Mutex
	demand int          // Acquire calls waiting for a byte
	slots  map[int]bool // trace lanes in use (0 is the implicit token's)
}

func (js *jobserver) String() string { return "make's jobserver (" + js.auth + ")" }

func (js *jobserver) Acquire(ctx context.Context) (Token, error) {
	if ctx.Err() != nil {
		return Token{}, context.Cause(ctx)
	}
	select {
	case <-js.implicit:
		return Token{implicit: true}, nil
	default:
	}
	js.setDemand(+1)
	defer js.setDemand(-1)
	select {
	case <-js.implicit:
		return Token{implicit: true}, nil
	case b := <-js.tokens:
		return Token{b: b, slot: js.takeSlot()}, nil
	case <-ctx.Done():
		return Token{}, context.Cause(ctx)
	}
}

func (js *jobserver) TryAcquire() (Token, bool) {
	select {
	case <-js.implicit:
		return Token{implicit: true}, true
	default:
		return Token{}, false
	}
}

func (js *jobserver) Release(t Token) {
	if t.implicit {
		js.implicit <- struct{}{}
		return
	}
	js.mu.Lock()
	delete(js.slots, t.slot)
	js.mu.Unlock()
	js.giveBack(t.b)
}

// giveBack writes a byte back to make. Make needs every byte back: a lost
// one is a job slot lost for the rest of its run.
func (js *jobserver) giveBack(b byte) {
	for {
		_, err := js.f.Write([]byte{b})
		if err == nil || !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}

// Size is not known: make does not tell its children its -j.
func (js *jobserver) Size() int { return 0 }

func (js *jobserver) Close() error {
	close(js.closed)
	js.signal()
	// Interrupt a pending read without losing a byte: a deadline makes Read
	// return having consumed nothing. (Files Go cannot poll do not support
	// deadlines; closing them is the only way left.)
	if err := js.f.SetReadDeadline(time.Now()); err != nil {
		err := js.f.Close()
		js.readerDone.Wait()
		return err
	}
	js.readerDone.Wait()
	return js.f.Close()
}

func (js *jobserver) setDemand(d int) {
	js.mu.Lock()
	js.demand += d
	js.mu.Unlock()
	js.signal()
}

func (js *jobserver) signal() {
	select {
	case js.changed <- struct{}{}:
	default:
	}
}

func (js *jobserver) wanted() bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.demand > 0
}

func (js *jobserver) takeSlot() int {
	js.mu.Lock()
	defer js.mu.Unlock()
	s := 1
	for js.slots[s] {
		s++
	}
	js.slots[s] = true
	return s
}

// reader reads bytes from make only while some Acquire waits for one, and
// hands each to a waiter; a byte nobody wants any more goes straight back.
func (js *jobserver) reader() {
	defer js.readerDone.Done()
	buf := make([]byte, 1)
	for {
		for !js.wanted() {
			select {
			case <-js.changed:
			case <-js.closed:
				return
			}
		}
		n, err := js.f.Read(buf)
		if err != nil || n == 0 {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			return // closed, or make went away
		}
		for handed := false; !handed; {
			select {
			case js.tokens <- buf[0]:
				handed = true
			case <-js.changed:
				if !js.wanted() {
					js.giveBack(buf[0])
					handed = true
				}
			case <-js.closed:
				js.giveBack(buf[0])
				return
			}
		}
	}
}
