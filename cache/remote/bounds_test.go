package remote_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
	bspb "google.golang.org/genproto/googleapis/bytestream"
	"google.golang.org/grpc"

	"github.com/sycbuild/sycbuild/cache/remote"
)

// liar is a REAPI server that misbehaves on purpose: every lookup is a hit
// whose outputs and output text announce the sizes it is given, and every
// ByteStream read sends data without end.
type liar struct {
	repb.UnimplementedActionCacheServer
	repb.UnimplementedCapabilitiesServer
	repb.UnimplementedContentAddressableStorageServer
	bspb.UnimplementedByteStreamServer
	outputs    []string
	outputSize int64
	textSize   int64
	sent       chan int64 // how much each ByteStream read sent
}

func (l *liar) GetCapabilities(context.Context, *repb.GetCapabilitiesRequest) (*repb.ServerCapabilities, error) {
	return &repb.ServerCapabilities{CacheCapabilities: &repb.CacheCapabilities{
		DigestFunctions:                 []repb.DigestFunction_Value{repb.DigestFunction_SHA256},
		ActionCacheUpdateCapabilities:   &repb.ActionCacheUpdateCapabilities{UpdateEnabled: false},
		MaxBatchTotalSizeBytes:          4 << 20,
		SymlinkAbsolutePathStrategy:     repb.SymlinkAbsolutePathStrategy_DISALLOWED,
		SupportedCompressors:            nil,
		SupportedBatchUpdateCompressors: nil,
	}}, nil
}

func (l *liar) GetActionResult(context.Context, *repb.GetActionResultRequest) (*repb.ActionResult, error) {
	h := sha256.Sum256([]byte("anything"))
	d := func(size int64) *repb.Digest { return &repb.Digest{Hash: hex.EncodeToString(h[:]), SizeBytes: size} }
	ar := &repb.ActionResult{StdoutDigest: d(l.textSize)}
	for _, o := range l.outputs {
		ar.OutputFiles = append(ar.OutputFiles, &repb.OutputFile{Path: o, Digest: d(l.outputSize)})
	}
	return ar, nil
}

func (l *liar) Read(_ *bspb.ReadRequest, s bspb.ByteStream_ReadServer) error {
	chunk := make([]byte, 1<<20)
	var n int64
	defer func() { l.sent <- n }()
	for {
		if err := s.Send(&bspb.ReadResponse{Data: chunk}); err != nil {
			return err
		}
		n += int64(len(chunk))
	}
}

func startLiar(t *testing.T, l *liar) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	repb.RegisterActionCacheServer(s, l)
	repb.RegisterCapabilitiesServer(s, l)
	repb.RegisterContentAddressableStorageServer(s, l)
	bspb.RegisterByteStreamServer(s, l)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	return "grpc://" + lis.Addr().String()
}

// TestServerSizesNotTrusted: what a server announces is read only up to
// what sycbuild expects: an output text (1 TiB, served by an endless
// ByteStream) over a small cap, or an output over the configured maximum,
// is a miss with a warning, read no further, and bounded memory; an output
// within the maximum whose stream goes past its size stops there.
func TestServerSizesNotTrusted(t *testing.T) {
	j := newJob(1, false)
	for _, tc := range []struct {
		name                 string
		outputSize, textSize int64
		want                 string
	}{
		{"text of 1 TiB", 10, 1 << 40, "output text announces 1099511627776 bytes"},
		{"output of 1 TiB", 1 << 40, 10, "announces 1099511627776 bytes"},
		{"output over the maximum", 64 << 20, 10, "announces 67108864 bytes"},
		{"endless output", 16 << 20, 0, "sent more than its size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &liar{outputs: j.a.Outputs, outputSize: tc.outputSize, textSize: tc.textSize, sent: make(chan int64, 10)}
			url := startLiar(t, l)
			var w warnings
			c, err := remote.Open(context.Background(), remote.Options{URL: url, Warn: w.add, ReadOnly: true,
				Timeout: 20 * time.Second, MaxOutputSize: 32 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			dir := t.TempDir()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			r, err := c.Get(context.Background(), j.a, dir)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if r != nil || err != nil {
				t.Fatalf("Get = %v, %v; want a miss", r, err)
			}
			if ws := w.get(); len(ws) != 1 || !strings.Contains(ws[0], tc.want) || c.Off() {
				t.Errorf("warnings %q (off %v); want one saying %q", ws, c.Off(), tc.want)
			}
			if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 64<<20 || took > 15*time.Second {
				t.Errorf("the lookup grew the heap by %d bytes in %v", grown, took)
			}
			noOutputs(t, dir)
		})
	}
}
