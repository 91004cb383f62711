package configs

import (
	"slices"
	"testing"
)

// TestExecutorErrors: executor: and slurm: are checked at their
// file:line:col, with a did-you-mean for a mistyped key or name.
func TestExecutorErrors(t *testing.T) {
	const head = "inputs: [a.ll]\ntargets: [{kind: llvm_ir}]\n"
	for _, tc := range []struct{ src, want string }{
		{"executor: slurn\n", `targets.yaml:3:11: executor: unknown executor "slurn" (want local or slurm); did you mean "slurm"?`},
		{"slurm:\n  partiton: gpu\n", `targets.yaml:4:3: slurm: unknown field "partiton" (did you mean "partition"?)`},
		{"slurm: {time: 2h}\n", `targets.yaml:3:15: slurm.time: "2h" is not a Slurm time limit (minutes, H:MM:SS, D-H, D-H:MM:SS, or unlimited)`},
		{"slurm: {nodes: 0}\n", `targets.yaml:3:16: slurm.nodes: want at least 1 node, got 0`},
		{"slurm: {nodes: two}\n", `targets.yaml:3:16: slurm.nodes: expected an integer, got a string`},
		{"slurm: {extra: 'hostname'}\n", `targets.yaml:3:16: slurm.extra: "hostname" (word 1) is not an option: salloc runs no command of the config's`},
		{"slurm: {account: 'a b'}\n", `targets.yaml:3:18: slurm.account: "a b": a name has no spaces`},
	} {
		_, err := Parse("targets.yaml", []byte(head+tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

func TestExecutorConfig(t *testing.T) {
	c, err := Parse("targets.yaml", []byte("inputs: [a.ll]\ntargets: [{kind: llvm_ir}]\n"))
	if err != nil || c.Executor != ExecutorLocal || c.Slurm != nil {
		t.Fatalf("default: %v %q %v", err, c.Executor, c.Slurm)
	}
	c, err = Parse("targets.yaml", []byte(`inputs: [a.ll]
targets: [{kind: llvm_ir}]
executor: slurm
slurm:
  partition: gpu
  account: p42
  time: 1-12:00:00
  nodes: 4
  extra: "--constraint=xeon --qos='debug'"
`))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Slurm
	if c.Executor != ExecutorSlurm || s.Partition != "gpu" || s.Account != "p42" || s.Time != "1-12:00:00" || s.Nodes != 4 ||
		!slices.Equal(s.Extra, []string{"--constraint=xeon", "--qos=debug"}) {
		t.Errorf("%q %+v", c.Executor, s)
	}
	if _, err := ParseExecutor("slurm"); err != nil {
		t.Error(err)
	}
}
