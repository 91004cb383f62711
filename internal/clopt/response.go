package clopt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// ExpandResponseFiles replaces each argument @file by the arguments the
// file holds, as LLVM's cl::ParseCommandLineOptions does before it parses
// (the driver passes long command lines so): the file is split by
// TokenizeGNU, an @file inside it is expanded in turn (its name relative to
// the working directory, as LLVM's tools resolve it), and an @file that does
// not exist is left as it is. A file that includes itself is an error, as
// is one that cannot be read.
func ExpandResponseFiles(tool string, args []string) ([]string, error) {
	if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "@") }) {
		return args, nil
	}
	return expand(tool, args, nil)
}

func expand(tool string, args, stack []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, a := range args {
		name, ok := strings.CutPrefix(a, "@")
		if !ok {
			out = append(out, a)
			continue
		}
		if slices.Contains(stack, name) {
			return nil, &Error{Msg: fmt.Sprintf("%s: recursive expansion of: '%s'", tool, name)}
		}
		b, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, a)
			continue
		}
		if err != nil {
			return nil, &Error{Msg: fmt.Sprintf("%s: cannot open file '%s': %v", tool, name, errors.Unwrap(err))}
		}
		text := strings.TrimPrefix(string(b), "\ufeff")
		inner, err := expand(tool, TokenizeGNU(text), append(stack, name))
		if err != nil {
			return nil, err
		}
		out = append(out, inner...)
	}
	return out, nil
}

// TokenizeGNU splits a response file's text into arguments as LLVM's
// cl::TokenizeGNUCommandLine does: whitespace separates them, a backslash
// takes the next character as it is, and a single- or double-quoted run
// (in which a backslash also escapes) joins the argument it is part of.
// An empty quoted argument ("") gives no argument, as in LLVM.
func TokenizeGNU(src string) []string {
	var out []string
	var tok strings.Builder
	white := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			i++
			tok.WriteByte(src[i])
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' && i+1 < len(src) {
					i++
				}
				tok.WriteByte(src[i])
			}
		case white(c):
			if tok.Len() > 0 {
				out = append(out, tok.String())
				tok.Reset()
			}
		default:
			tok.WriteByte(c)
		}
	}
	if tok.Len() > 0 {
		out = append(out, tok.String())
	}
	return out
}
