package configs

import (
	"errors"
	"fmt"
)

// Loc is one value of a config, as the build names it in messages: its
// path ("targets[2].devices[1]") and where it comes from (the config
// file's line and column, or a command-line flag that replaced it). A Loc
// is made only by the Config's methods below, from the decoder's record of
// each value's position, so no caller writes a path: a value the file
// does not give (a default) is at its nearest enclosing value.
type Loc struct {
	c    *Config
	Path string
}

// InputList is the inputs list.
func (c *Config) InputList() Loc { return Loc{c, "inputs"} }

// Input is the i-th input.
func (c *Config) Input(i int) Loc { return Loc{c, "inputs[" + itoa(i) + "]"} }

// Field is a top-level field ("output", "remote_cache").
func (c *Config) Field(name string) Loc { return Loc{c, name} }

// TargetLoc is target t's entry.
func (c *Config) TargetLoc(t *Target) Loc { return Loc{c, t.path()} }

// NameLoc is target t's name.
func (c *Config) NameLoc(t *Target) Loc { return Loc{c, t.path() + ".name"} }

// DeviceLoc is target t's j-th device.
func (c *Config) DeviceLoc(t *Target, j int) Loc {
	return Loc{c, t.path() + ".devices[" + itoa(j) + "]"}
}

// OptionsLoc is target t's options for tool.
func (c *Config) OptionsLoc(t *Target, tool Tool) Loc {
	return Loc{c, t.path() + ".options." + string(tool)}
}

// Pos is the value's position in the config file (or its nearest
// enclosing value's, for a value the file does not give).
func (l Loc) Pos() Pos { return l.c.pos.lookup(l.Path) }

// Given says whether the config file gives the value itself.
func (l Loc) Given() bool {
	_, ok := l.c.pos[l.Path]
	return ok
}

// Position is the value's position as "file:line:col".
func (l Loc) Position() string {
	p := l.Pos()
	return fmt.Sprintf("%s:%d:%d", l.c.File, p.Line, p.Col)
}

// String is where the value comes from: "file:line:col", or "command
// line: -o" for a value the command line replaced.
func (l Loc) String() string { return l.c.where(l.Path) }

// Flag is the command-line flag that replaced the value ("-o"; "input"
// for the inputs), or "" for a value of the config file.
func (l Loc) Flag() string { return l.c.flag(l.Path) }

// Error is a problem with the value at its position in the config file.
func (l Loc) Error(format string, args ...any) *Error {
	p := l.Pos()
	return &Error{File: l.c.File, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}

// Errorf is a problem with the value: an *Error at its position, or, for a
// value the command line gave, an error naming the flag.
func (l Loc) Errorf(format string, args ...any) error {
	if flag := l.c.flag(l.Path); flag != "" {
		return errors.New("command line: " + flag + ": " + fmt.Sprintf(format, args...))
	}
	return l.Error(format, args...)
}
