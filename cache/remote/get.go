package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	repb "github.com/bazelbuild/remote-apis/build/bazel/remote/execution/v2"
	bspb "google.golang.org/genproto/googleapis/bytestream"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/sycbuild/sycbuild/cache"
)

// outFile is one output of an entry, checked.
type outFile struct {
	path     string
	d        cache.Digest
	exec     bool
	contents []byte // inlined by the server, or nil
}

// localError is a failure to write an output under the build's directory:
// the build must hear of it.
type localError struct{ err error }

func (e *localError) Error() string { return e.err.Error() }
func (e *localError) Unwrap() error { return e.err }

// get looks enc up on the server and on a hit writes the outputs under
// dir: all of them, each checked against its digest, or none.
func (c *Cache) get(ctx context.Context, enc *cache.Encoded, dir string) (*cache.Result, error) {
	cctx, cancel := c.callCtx(ctx)
	ar, err := c.ac.GetActionResult(cctx, &repb.GetActionResultRequest{
		InstanceName:      c.instance,
		ActionDigest:      toProto(enc.Key),
		InlineStdout:      true,
		InlineOutputFiles: enc.Outputs,
	})
	cancel()
	if err != nil {
		if status.Code(err) != codes.NotFound {
			c.fail(ctx, err)
		}
		return nil, nil
	}
	files, err := checkResult(ar, enc, c.maxOut)
	if err != nil {
		c.warn(fmt.Sprintf("remote cache %s: entry %s: %v; not used", c.name, enc.Key.Hash, err))
		return nil, nil
	}
	st := cache.NewStaging(dir)
	out, err := c.fetch(ctx, st, files, ar)
	if err == nil {
		err = st.Commit()
		if err != nil {
			err = &localError{err}
		}
	} else {
		st.Abort()
	}
	var le *localError
	switch {
	case err == nil:
		return &cache.Result{Output: out, Source: cache.Remote}, nil
	case errors.As(err, &le):
		return nil, fmt.Errorf("writing outputs from remote cache %s: %w", c.name, le.err)
	case ctx.Err() != nil:
	case entryProblem(err):
		c.warn(fmt.Sprintf("remote cache %s: entry %s: %v; not used", c.name, enc.Key.Hash, err))
	default:
		c.fail(ctx, err)
	}
	return nil, nil
}

// checkResult checks that ar is a successful result with exactly the
// outputs of enc, none announcing more than maxOut bytes and its text no
// more than MaxOutputText, and returns them in enc's order. A server's
// sizes are not trusted: what they announce beyond the bounds is never
// read (an endless stream would fill the memory or the disk).
func checkResult(ar *repb.ActionResult, enc *cache.Encoded, maxOut int64) ([]outFile, error) {
	if ar.GetExitCode() != 0 {
		return nil, fmt.Errorf("exit code %d", ar.GetExitCode())
	}
	if len(ar.GetOutputDirectories()) > 0 || len(ar.GetOutputSymlinks()) > 0 {
		return nil, fmt.Errorf("holds directories or symbolic links")
	}
	if len(ar.GetOutputFiles()) != len(enc.Outputs) {
		return nil, fmt.Errorf("holds %d outputs, the action has %d", len(ar.GetOutputFiles()), len(enc.Outputs))
	}
	files := make([]outFile, len(enc.Outputs))
	seen := make([]bool, len(enc.Outputs))
	for _, f := range ar.GetOutputFiles() {
		i, ok := slices.BinarySearch(enc.Outputs, f.GetPath())
		if !ok || seen[i] {
			return nil, fmt.Errorf("output %q is not one of the action's", f.GetPath())
		}
		seen[i] = true
		d, err := fromProto(f.GetDigest())
		if err != nil {
			return nil, fmt.Errorf("output %q: %v", f.GetPath(), err)
		}
		if d.Size > maxOut {
			return nil, fmt.Errorf("output %q announces %d bytes, over the limit of %d", f.GetPath(), d.Size, maxOut)
		}
		files[i] = outFile{path: f.GetPath(), d: d, exec: f.GetIsExecutable(), contents: f.GetContents()}
	}
	if ar.GetStdoutDigest() != nil {
		d, err := fromProto(ar.GetStdoutDigest())
		if err != nil {
			return nil, fmt.Errorf("output text: %v", err)
		}
		if d.Size > MaxOutputText {
			return nil, fmt.Errorf("output text announces %d bytes, over the limit of %d", d.Size, MaxOutputText)
		}
	}
	return files, nil
}

// fetch writes files into st and returns the action's output text. Small
// blobs come in batches, large ones through ByteStream, inlined ones with
// the result; every one is checked against its digest.
func (c *Cache) fetch(ctx context.Context, st *cache.Staging, files []outFile, ar *repb.ActionResult) ([]byte, error) {
	var stdoutD cache.Digest
	haveStdout := ar.GetStdoutDigest() != nil && len(ar.GetStdoutRaw()) == 0
	if haveStdout {
		stdoutD, _ = fromProto(ar.GetStdoutDigest())
	}
	var small []cache.Digest
	for _, f := range files {
		if f.contents == nil && f.d.Size > 0 && batchable(f.d) {
			small = append(small, f.d)
		}
	}
	if haveStdout && stdoutD.Size > 0 && batchable(stdoutD) {
		small = append(small, stdoutD)
	}
	blobs, err := c.readBatches(ctx, small)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		w, err := st.Create(f.path, f.exec)
		if err != nil {
			return nil, &localError{err}
		}
		if err := c.readInto(ctx, w, f.d, f.contents, blobs); err != nil {
			return nil, err
		}
		if err := w.Finish(f.d); err != nil {
			return nil, err
		}
	}
	if !haveStdout {
		out := ar.GetStdoutRaw()
		if d := ar.GetStdoutDigest(); d != nil {
			want, _ := fromProto(d)
			if got := cache.DigestOf(out); got != want {
				return nil, &cache.DigestError{Want: want, Got: got}
			}
		}
		return out, nil
	}
	var b bytes.Buffer
	if err := c.readInto(ctx, &b, stdoutD, nil, blobs); err != nil {
		return nil, err
	}
	if got := cache.DigestOf(b.Bytes()); got != stdoutD {
		return nil, &cache.DigestError{Want: stdoutD, Got: got}
	}
	return b.Bytes(), nil
}

// readInto writes the blob d to w: from contents when the server inlined
// it, from blobs when it came in a batch, else through ByteStream. The
// caller checks the digest of what was written.
func (c *Cache) readInto(ctx context.Context, w io.Writer, d cache.Digest, contents []byte, blobs map[cache.Digest][]byte) error {
	switch {
	case contents != nil:
		return write(w, contents)
	case d.Size == 0:
		return nil
	case batchable(d):
		data, ok := blobs[d]
		if !ok {
			return status.Errorf(codes.NotFound, "blob %s is missing", d)
		}
		return write(w, data)
	}
	return c.readStream(ctx, w, d)
}

func write(w io.Writer, data []byte) error {
	if _, err := w.Write(data); err != nil {
		return &localError{err}
	}
	return nil
}

// readBatches reads the blobs ds in batches and returns those found.
func (c *Cache) readBatches(ctx context.Context, ds []cache.Digest) (map[cache.Digest][]byte, error) {
	slices.SortFunc(ds, func(a, b cache.Digest) int { return compareDigests(a, b) })
	ds = slices.Compact(ds)
	blobs := make(map[cache.Digest][]byte, len(ds))
	for len(ds) > 0 {
		var req repb.BatchReadBlobsRequest
		req.InstanceName = c.instance
		var total int64
		n := 0
		for n < len(ds) && (n == 0 || total+ds[n].Size+blobOverhead <= maxBatch) {
			total += ds[n].Size + blobOverhead
			req.Digests = append(req.Digests, toProto(ds[n]))
			n++
		}
		ds = ds[n:]
		cctx, cancel := c.callCtx(ctx)
		resp, err := c.cas.BatchReadBlobs(cctx, &req)
		cancel()
		if err != nil {
			return nil, err
		}
		for _, r := range resp.GetResponses() {
			if r.GetStatus().GetCode() != int32(codes.OK) {
				continue
			}
			d, err := fromProto(r.GetDigest())
			if err != nil {
				continue
			}
			blobs[d] = r.GetData()
		}
	}
	return blobs, nil
}

// readStream reads the blob d through ByteStream into w, stopping at its
// size.
func (c *Cache) readStream(ctx context.Context, w io.Writer, d cache.Digest) error {
	cctx, cancel := c.callCtx(ctx)
	defer cancel()
	stream, err := c.bs.Read(cctx, &bspb.ReadRequest{ResourceName: c.resource("blobs", d)})
	if err != nil {
		return err
	}
	var n int64
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		n += int64(len(resp.GetData()))
		if n > d.Size {
			return status.Errorf(codes.DataLoss, "blob %s: the server sent more than its size", d)
		}
		if err := write(w, resp.GetData()); err != nil {
			return err
		}
	}
}
