package remote

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
	bspb "google.golang.org/genproto/googleapis/bytestream"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/sycbuild/sycbuild/cache"
)

// blobOverhead is what one blob adds to a batch besides its bytes (its
// digest and the message's framing), rounded up.
const blobOverhead = 256

// streamChunk is the size of one ByteStream message.
const streamChunk = 1 << 20

// batchable reports whether d goes in a batch rather than a stream.
func batchable(d cache.Digest) bool { return d.Size+blobOverhead <= maxBatch-4096 }

// upload is one result waiting to be uploaded.
type upload struct {
	enc    *cache.Encoded
	dir    string
	output []byte
	stamps []stamp // of enc.Outputs, when Put was called
}

// stamp is what an output was when its action was stored.
type stamp struct {
	size  int64
	mtime time.Time
}

// blob is one blob to upload: its bytes, or the file that holds them.
type blob struct {
	d    cache.Digest
	data []byte
	file string
}

// uploader runs uploads until the queue is closed.
func (c *Cache) uploader() {
	defer c.workers.Done()
	for u := range c.queue {
		if c.off.Load() || c.bg.Err() != nil {
			c.dropped.Add(1)
			continue
		}
		switch err := c.upload(c.bg, u); {
		case err == nil:
			c.uploads.Add(1)
		case c.bg.Err() != nil:
			c.dropped.Add(1)
		case entryProblem(err):
			// An output changed since the action ran, or the server
			// refused this entry: this one is not stored.
			c.dropped.Add(1)
		default:
			c.dropped.Add(1)
			c.fail(c.bg, err)
		}
	}
}

// upload stores u's outputs, output text, Command and Action in the CAS
// (those the server lacks), then its ActionResult.
func (c *Cache) upload(ctx context.Context, u *upload) error {
	ar := &repb.ActionResult{}
	blobs := make([]blob, 0, len(u.enc.Outputs)+3)
	for i, o := range u.enc.Outputs {
		b, exec, err := fileBlob(filepath.Join(u.dir, filepath.FromSlash(o)), u.stamps[i])
		if err != nil {
			return status.Errorf(codes.FailedPrecondition, "%v", err)
		}
		blobs = append(blobs, b)
		ar.OutputFiles = append(ar.OutputFiles, &repb.OutputFile{Path: o, Digest: toProto(b.d), IsExecutable: exec})
	}
	if len(u.output) > 0 {
		b := blob{d: cache.DigestOf(u.output), data: u.output}
		blobs = append(blobs, b)
		ar.StdoutDigest = toProto(b.d)
	}
	blobs = append(blobs,
		blob{d: cache.DigestOf(u.enc.Command), data: u.enc.Command},
		blob{d: u.enc.Key, data: u.enc.Action})
	if err := c.writeBlobs(ctx, blobs); err != nil {
		return err
	}
	cctx, cancel := c.callCtx(ctx)
	defer cancel()
	_, err := c.ac.UpdateActionResult(cctx, &repb.UpdateActionResultRequest{
		InstanceName: c.instance,
		ActionDigest: toProto(u.enc.Key),
		ActionResult: ar,
	})
	return err
}

// fileBlob hashes the file called name: a small file is read into memory
// for a batch, a large one is only hashed and read again if the server
// lacks it. The file must still be what st says, before and after.
func fileBlob(name string, st stamp) (b blob, exec bool, err error) {
	f, err := os.Open(name)
	if err != nil {
		return blob{}, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return blob{}, false, err
	}
	if !fi.Mode().IsRegular() {
		return blob{}, false, fmt.Errorf("%s is not a regular file", name)
	}
	changed := func(fi os.FileInfo) bool { return fi.Size() != st.size || !fi.ModTime().Equal(st.mtime) }
	if changed(fi) {
		return blob{}, false, fmt.Errorf("%s changed since its action ran", name)
	}
	exec = fi.Mode()&0o111 != 0
	if batchable(cache.Digest{Size: fi.Size()}) {
		data, err := io.ReadAll(f)
		if err != nil {
			return blob{}, false, err
		}
		b = blob{d: cache.DigestOf(data), data: data}
	} else {
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			return blob{}, false, err
		}
		b = blob{d: cache.Digest{Hash: hex.EncodeToString(h.Sum(nil)), Size: n}, file: name}
	}
	if fi, err := f.Stat(); err != nil || changed(fi) {
		return blob{}, false, fmt.Errorf("%s changed since its action ran", name)
	}
	return b, exec, nil
}

// writeBlobs uploads those of blobs that the server lacks.
func (c *Cache) writeBlobs(ctx context.Context, blobs []blob) error {
	byDigest := make(map[cache.Digest]blob, len(blobs))
	req := &repb.FindMissingBlobsRequest{InstanceName: c.instance}
	for _, b := range blobs {
		if _, ok := byDigest[b.d]; ok || b.d.Size == 0 {
			continue // the empty blob is always there
		}
		byDigest[b.d] = b
		req.BlobDigests = append(req.BlobDigests, toProto(b.d))
	}
	if len(req.BlobDigests) == 0 {
		return nil
	}
	cctx, cancel := c.callCtx(ctx)
	resp, err := c.cas.FindMissingBlobs(cctx, req)
	cancel()
	if err != nil {
		return err
	}
	batch := &repb.BatchUpdateBlobsRequest{InstanceName: c.instance}
	var total int64
	flush := func() error {
		if len(batch.Requests) == 0 {
			return nil
		}
		cctx, cancel := c.callCtx(ctx)
		resp, err := c.cas.BatchUpdateBlobs(cctx, batch)
		cancel()
		if err != nil {
			return err
		}
		for _, r := range resp.GetResponses() {
			if code := codes.Code(r.GetStatus().GetCode()); code != codes.OK {
				return status.Errorf(code, "storing blob %s/%d: %s", r.GetDigest().GetHash(), r.GetDigest().GetSizeBytes(), r.GetStatus().GetMessage())
			}
		}
		batch = &repb.BatchUpdateBlobsRequest{InstanceName: c.instance}
		total = 0
		return nil
	}
	for _, pd := range resp.GetMissingBlobDigests() {
		d, err := fromProto(pd)
		if err != nil {
			return err
		}
		b, ok := byDigest[d]
		if !ok {
			continue // not asked for
		}
		if b.file != "" {
			if err := c.writeStream(ctx, b); err != nil {
				return err
			}
			continue
		}
		if total+d.Size+blobOverhead > maxBatch-4096 {
			if err := flush(); err != nil {
				return err
			}
		}
		batch.Requests = append(batch.Requests, &repb.BatchUpdateBlobsRequest_Request{Digest: pd, Data: b.data})
		total += d.Size + blobOverhead
	}
	return flush()
}

// writeStream uploads the file of b through ByteStream. The server checks
// the digest, so a file changed since it was hashed is refused.
func (c *Cache) writeStream(ctx context.Context, b blob) error {
	f, err := os.Open(b.file)
	if err != nil {
		return status.Errorf(codes.FailedPrecondition, "%v", err)
	}
	defer f.Close()
	cctx, cancel := c.callCtx(ctx)
	defer cancel()
	stream, err := c.bs.Write(cctx)
	if err != nil {
		return err
	}
	name := c.resource("uploads/"+newUUID()+"/blobs", b.d)
	buf := make([]byte, streamChunk)
	var off int64
	for {
		n, rerr := io.ReadFull(f, buf)
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			stream.CloseSend()
			return status.Errorf(codes.FailedPrecondition, "%v", rerr)
		}
		last := off+int64(n) >= b.d.Size || n < len(buf)
		req := &bspb.WriteRequest{WriteOffset: off, Data: buf[:n], FinishWrite: last}
		if off == 0 {
			req.ResourceName = name
		}
		if err := stream.Send(req); err != nil {
			if err == io.EOF {
				break // the server ended the stream: its status follows
			}
			return err
		}
		off += int64(n)
		if last {
			break
		}
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return err
	}
	if resp.GetCommittedSize() != b.d.Size && resp.GetCommittedSize() != -1 {
		return status.Errorf(codes.DataLoss, "blob %s: the server committed %d bytes", b.d, resp.GetCommittedSize())
	}
	return nil
}

// resource returns the ByteStream resource name of d under kind ("blobs",
// or "uploads/UUID/blobs").
func (c *Cache) resource(kind string, d cache.Digest) string {
	s := kind + "/" + d.Hash + "/" + strconv.FormatInt(d.Size, 10)
	if c.instance != "" {
		s = c.instance + "/" + s
	}
	return s
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func toProto(d cache.Digest) *repb.Digest { return &repb.Digest{Hash: d.Hash, SizeBytes: d.Size} }

// fromProto checks and converts a digest the server sent.
func fromProto(pd *repb.Digest) (cache.Digest, error) {
	h := pd.GetHash()
	if len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" || pd.GetSizeBytes() < 0 {
		return cache.Digest{}, status.Errorf(codes.InvalidArgument, "bad digest %q/%d", h, pd.GetSizeBytes())
	}
	return cache.Digest{Hash: h, Size: pd.GetSizeBytes()}, nil
}

func compareDigests(a, b cache.Digest) int {
	if c := strings.Compare(a.Hash, b.Hash); c != 0 {
		return c
	}
	return int(a.Size - b.Size)
}
