package configs

import (
	"testing"
)

// TestLocsGiven: each Loc the Config hands out names a value as the
// decoder recorded it, at the value's own line and column, never its
// parent's: the typed accessors and the decoder agree on every path.
func TestLocsGiven(t *testing.T) {
	src := `inputs: [a.ll, b.ll]
output: out/x.o
targets:
  - kind: spir64_gen
    name: gen
    devices: [pvc, acm-g10]
    options:
      ocloc: [-options, -x]
`
	c, err := Parse("targets.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tg := c.Targets[0]
	for _, tc := range []struct {
		loc  Loc
		want Pos
	}{
		{c.InputList(), Pos{1, 9}},
		{c.Input(0), Pos{1, 10}},
		{c.Input(1), Pos{1, 16}},
		{c.Field("output"), Pos{2, 9}},
		{c.TargetLoc(tg), Pos{4, 5}},
		{c.NameLoc(tg), Pos{5, 11}},
		{c.DeviceLoc(tg, 1), Pos{6, 20}},
		{c.OptionsLoc(tg, ToolOcloc), Pos{8, 14}},
	} {
		if !tc.loc.Given() {
			t.Errorf("%s: not given", tc.loc.Path)
		}
		if got := tc.loc.Pos(); got != tc.want {
			t.Errorf("%s at %v, want %v", tc.loc.Path, got, tc.want)
		}
	}
	if l := c.DeviceLoc(tg, 2); l.Given() || l.Pos() != (Pos{6, 14}) {
		t.Errorf("an absent device: given %v at %v, want the list's 6:14", l.Given(), l.Pos())
	}
	if l := c.Input(1); l.String() != "targets.yaml:1:16" || l.Flag() != "" {
		t.Errorf("inputs[1] is %q (flag %q)", l.String(), l.Flag())
	}
	if err := c.Override(Overrides{Inputs: []string{"c.ll"}}); err != nil {
		t.Fatal(err)
	}
	if l := c.Input(0); l.String() != "command line: input" {
		t.Errorf("an input from the command line is %q", l.String())
	}
	if err := c.Input(0).Errorf("bad"); err.Error() != "command line: input: bad" {
		t.Errorf("its error: %v", err)
	}
}
