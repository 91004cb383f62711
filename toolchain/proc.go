package toolchain

import (
	"bytes"
	"context"

	"github.com/sycbuild/sycbuild/jobs"
)

// combinedOutput runs a tool's query (argv) in dir ("" is the working
// directory) as the build runs its commands, through jobs (a process group
// of its own, gone with sycbuild), and returns what it printed on both
// streams.
func combinedOutput(ctx context.Context, dir string, argv ...string) ([]byte, error) {
	var out bytes.Buffer
	cmd := &jobs.Command{Argv: argv, Dir: dir, Stdout: &out, Stderr: &out}
	_, err := cmd.Run(ctx)
	return out.Bytes(), err
}
