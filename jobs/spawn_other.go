//go:build !linux

package jobs

import "context"

// runDirect is Linux's (spawn_linux.go); elsewhere exec.Cmd runs every
// command.
func (c *Command) runDirect(context.Context, string) (*Usage, bool, error) { return nil, false, nil }
