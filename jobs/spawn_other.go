//go:build !linux

package jobs

import (
	"context"
	"os"
)

// startDirect is Linux's (spawn_linux.go); elsewhere exec.Cmd runs every
// command.
func (c *Command) startDirect(context.Context, string) (func() (*Usage, error), bool, error) {
	return nil, false, nil
}

// Pipe makes a pipe between two children.
func Pipe() (r, w *os.File, err error) { return os.Pipe() }
