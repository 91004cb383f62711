// Package remote is sycbuild's remote cache on the Remote Execution API
// (REAPI v2), as served by bazel-remote, BuildBuddy, NativeLink, Buildbarn
// and EngFlow: the ActionCache holds an ActionResult per action, keyed by
// the digest of the action's Action message (cache.Encode), and the
// ContentAddressableStorage holds the output files, the output text, and
// the Action and Command messages themselves, so that other REAPI tools
// can inspect an entry. Small blobs travel in batches, large ones through
// ByteStream.
//
// The remote cache is never wrong and never stuck. Every blob downloaded
// is checked against its digest before any output is written; an entry
// that does not match its action is a miss. A server that is down, slow
// (every call has a timeout) or gone mid-build turns the cache off for the
// rest of the build with one warning: a Get is then a miss and a Put does
// nothing, and the build does its own work. Uploads run in the background
// on a few workers fed by a bounded queue; when the queue is full an
// upload is dropped and counted, and Close waits for the queue for at most
// the timeout.
package remote

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
	bspb "google.golang.org/genproto/googleapis/bytestream"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/sycbuild/sycbuild/cache"
)

// Defaults of Options.
const (
	DefaultTimeout = 30 * time.Second
	DefaultUploads = 4
	DefaultQueue   = 1000
)

// maxBatch bounds a batch request or response, whatever the server allows:
// gRPC's usual message limit.
const maxBatch = 4 << 20

// Options configure a remote cache.
type Options struct {
	// URL is grpc://HOST:PORT (plain text) or grpcs://HOST:PORT (TLS,
	// checked against the system's roots), optionally followed by
	// /INSTANCE, the REAPI instance name.
	URL string
	// CACert is a PEM file of the certificate authorities that a grpcs://
	// server's certificate is checked against, instead of the system's.
	CACert string
	// Headers are sent with every call, each "Name: value" or
	// "Name=value" (e.g. "authorization: Bearer TOKEN").
	Headers []string
	// ReadOnly makes the cache only look up: it never writes to the
	// server.
	ReadOnly bool
	// Timeout bounds every call to the server, and Close's wait for the
	// uploads; 0 means DefaultTimeout.
	Timeout time.Duration
	// Uploads is how many uploads run at once; 0 means DefaultUploads.
	Uploads int
	// Queue is how many uploads may wait; 0 means DefaultQueue.
	Queue int
	// Warn receives the cache's warnings; nil writes them to standard
	// error.
	Warn func(string)
	// MaxOutputSize bounds the size of one output read from the server;
	// 0 means DefaultMaxOutputSize. An entry announcing a larger one is a
	// miss with a warning, read no further.
	MaxOutputSize int64
}

// DefaultMaxOutputSize is far above any device image: what a server
// announces beyond it is not read.
const DefaultMaxOutputSize = 4 << 30

// MaxOutputText bounds the text an entry says its commands printed (what
// a tool prints is a few lines; the whole of it is kept in memory).
const MaxOutputText = 1 << 20

// Cache is a remote cache. Its methods may be called concurrently.
type Cache struct {
	name     string // the URL, for messages
	instance string
	maxOut   int64
	timeout  time.Duration
	md       metadata.MD
	warn     func(string)
	readOnly bool

	conn *grpc.ClientConn
	ac   repb.ActionCacheClient
	cas  repb.ContentAddressableStorageClient
	bs   bspb.ByteStreamClient

	off     atomic.Bool
	offOnce sync.Once

	mu      sync.RWMutex // guards closed against Put's sends
	closed  bool
	queue   chan *upload
	workers sync.WaitGroup
	bg      context.Context // the uploads' context, cancelled by Close
	stop    context.CancelFunc

	hits, misses, uploads, dropped atomic.Int64
}

// Open connects to the server named by opts.URL and checks its
// capabilities. Only bad options are an error: a server that cannot be
// reached or cannot serve as a cache gives a warning and a cache that is
// off (every Get a miss, every Put nothing).
func Open(ctx context.Context, opts Options) (*Cache, error) {
	target, instance, useTLS, err := parseURL(opts.URL)
	if err != nil {
		return nil, err
	}
	md := metadata.MD{}
	for _, h := range opts.Headers {
		i := strings.IndexAny(h, ":=")
		if i < 0 || strings.TrimSpace(h[:i]) == "" {
			return nil, fmt.Errorf("remote cache header %q: want Name: value or Name=value", h)
		}
		md.Append(strings.TrimSpace(h[:i]), strings.TrimSpace(h[i+1:]))
	}
	c := &Cache{
		name:     opts.URL,
		instance: instance,
		timeout:  opts.Timeout,
		md:       md,
		warn:     opts.Warn,
		readOnly: opts.ReadOnly,
		maxOut:   opts.MaxOutputSize,
	}
	if c.maxOut <= 0 {
		c.maxOut = DefaultMaxOutputSize
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.warn == nil {
		c.warn = func(s string) { fmt.Fprintln(os.Stderr, "warning: "+s) }
	}
	creds := insecure.NewCredentials()
	if useTLS {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if opts.CACert != "" {
			pem, err := os.ReadFile(opts.CACert)
			if err != nil {
				return nil, fmt.Errorf("remote cache: %w", err)
			}
			cfg.RootCAs = x509.NewCertPool()
			if !cfg.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("remote cache: %s holds no PEM certificate", opts.CACert)
			}
		}
		creds = credentials.NewTLS(cfg)
	} else if opts.CACert != "" {
		return nil, fmt.Errorf("remote cache %s: a CA certificate is for grpcs:// only", opts.URL)
	}
	c.conn, err = grpc.NewClient(target,
		grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(2*maxBatch)))
	if err != nil {
		return nil, fmt.Errorf("remote cache %s: %w", opts.URL, err)
	}
	c.ac = repb.NewActionCacheClient(c.conn)
	c.cas = repb.NewContentAddressableStorageClient(c.conn)
	c.bs = bspb.NewByteStreamClient(c.conn)

	uploads, queue := opts.Uploads, opts.Queue
	if uploads <= 0 {
		uploads = DefaultUploads
	}
	if queue <= 0 {
		queue = DefaultQueue
	}
	c.bg, c.stop = context.WithCancel(context.Background())
	c.queue = make(chan *upload, queue)
	if !c.readOnly {
		for range uploads {
			c.workers.Add(1)
			go c.uploader()
		}
	}
	c.checkCapabilities(ctx)
	return c, nil
}

// CheckURL checks a remote cache's address without connecting: a build
// refuses a malformed one before it starts, where a server that cannot be
// reached only costs a warning.
func CheckURL(s string) error {
	_, _, _, err := parseURL(s)
	return err
}

// parseURL splits grpc[s]://HOST:PORT[/INSTANCE].
func parseURL(s string) (target, instance string, useTLS bool, err error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", "", false, fmt.Errorf("remote cache URL %q: %w", s, err)
	}
	switch u.Scheme {
	case "grpc":
	case "grpcs":
		useTLS = true
	default:
		return "", "", false, fmt.Errorf("remote cache URL %q: want grpc://HOST:PORT or grpcs://HOST:PORT", s)
	}
	if u.Host == "" || u.Port() == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "", false, fmt.Errorf("remote cache URL %q: want grpc://HOST:PORT or grpcs://HOST:PORT", s)
	}
	return u.Host, strings.Trim(u.Path, "/"), useTLS, nil
}

// checkCapabilities asks the server what it serves, and turns the cache
// off (or read-only) when it cannot serve as one.
func (c *Cache) checkCapabilities(ctx context.Context) {
	cctx, cancel := c.callCtx(ctx)
	defer cancel()
	caps, err := repb.NewCapabilitiesClient(c.conn).GetCapabilities(cctx, &repb.GetCapabilitiesRequest{InstanceName: c.instance})
	if err != nil {
		c.fail(ctx, err)
		return
	}
	cc := caps.GetCacheCapabilities()
	if cc == nil {
		c.disable("the server offers no cache")
		return
	}
	if fns := cc.GetDigestFunctions(); len(fns) > 0 && !containsSHA256(fns) {
		c.disable("the server does not take SHA-256 digests")
		return
	}
	if !c.readOnly && !cc.GetActionCacheUpdateCapabilities().GetUpdateEnabled() {
		c.warn(fmt.Sprintf("remote cache %s: the server does not let clients store results; only looking up", c.name))
		c.readOnly = true
	}
}

func containsSHA256(fns []repb.DigestFunction_Value) bool {
	for _, f := range fns {
		if f == repb.DigestFunction_SHA256 {
			return true
		}
	}
	return false
}

// callCtx returns the context of one call: the timeout and the headers.
func (c *Cache) callCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	if len(c.md) > 0 {
		ctx = metadata.NewOutgoingContext(ctx, c.md)
	}
	return ctx, cancel
}

// fail handles an error of a call that is not about one entry: the
// server is down, slow, refusing or broken. The cache is turned off, with
// one warning. An error because ctx (the caller's) ended is not the
// server's fault and changes nothing.
func (c *Cache) fail(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	c.disable(status.Convert(err).Message() + " (" + status.Code(err).String() + ")")
}

// disable turns the cache off for the rest of the build, with one warning.
func (c *Cache) disable(why string) {
	c.offOnce.Do(func() {
		c.off.Store(true)
		c.warn(fmt.Sprintf("remote cache %s: %s; continuing without it", c.name, why))
	})
}

// entryProblem reports whether err is about one entry (a blob missing or
// damaged) rather than about the server.
func entryProblem(err error) bool {
	var de *cache.DigestError
	if errors.As(err, &de) {
		return true
	}
	switch status.Code(err) {
	case codes.NotFound, codes.DataLoss, codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange:
		return true
	}
	return false
}

// Off reports whether the cache has been turned off.
func (c *Cache) Off() bool { return c.off.Load() }

// Get looks a up and on a hit writes its outputs under dir.
func (c *Cache) Get(ctx context.Context, a *cache.Action, dir string) (*cache.Result, error) {
	enc, err := cache.Encode(a)
	if err != nil {
		return nil, err
	}
	var r *cache.Result
	if !c.off.Load() {
		r, err = c.get(ctx, enc, dir)
	}
	switch {
	case err != nil:
		return nil, err
	case r == nil:
		c.misses.Add(1)
	default:
		c.hits.Add(1)
	}
	return r, nil
}

// Put queues the upload of a's result; it does nothing when the cache is
// read-only or off.
func (c *Cache) Put(ctx context.Context, a *cache.Action, r *cache.Result, dir string) error {
	if c.readOnly || c.off.Load() {
		return nil
	}
	enc, err := cache.Encode(a)
	if err != nil {
		return err
	}
	u := &upload{enc: enc, dir: dir, stamps: make([]stamp, len(enc.Outputs))}
	if r != nil {
		u.output = r.Output
	}
	// The outputs are read later, in the background: what they are now
	// is noted, and an output that changed meanwhile is not uploaded
	// under this action's key.
	for i, o := range enc.Outputs {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(o)))
		if err != nil {
			c.dropped.Add(1)
			return nil
		}
		u.stamps[i] = stamp{fi.Size(), fi.ModTime()}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil
	}
	select {
	case c.queue <- u:
	default:
		c.dropped.Add(1)
	}
	return nil
}

// Close waits for the queued uploads, for at most the timeout; then it
// abandons the rest (counted as dropped, with a warning) and closes the
// connection.
func (c *Cache) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.queue)
	c.mu.Unlock()
	done := make(chan struct{})
	go func() { c.workers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(c.timeout):
		c.stop()
		<-done
	}
	c.stop()
	for range c.queue { // none left unless the uploaders had stopped
		c.dropped.Add(1)
	}
	if n := c.dropped.Load(); n > 0 && !c.off.Load() {
		c.warn(fmt.Sprintf("remote cache %s: %d results not uploaded", c.name, n))
	}
	return c.conn.Close()
}

// Counters returns the hits, misses, uploads and dropped uploads of this
// process.
func (c *Cache) Counters() cache.Counters {
	return cache.Counters{RemoteHits: c.hits.Load(), Misses: c.misses.Load(), Uploads: c.uploads.Load(), Dropped: c.dropped.Load()}
}

var _ cache.Cache = (*Cache)(nil)
var _ cache.Counted = (*Cache)(nil)
