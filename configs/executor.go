package configs

import (
	"fmt"
	"regexp"
	"strings"
)

// Executor is where a build's external commands run.
type Executor string

// The executors.
const (
	// ExecutorLocal runs them on this machine (the default).
	ExecutorLocal Executor = "local"
	// ExecutorSlurm runs them as job steps of a Slurm allocation
	// (docs/slurm.md).
	ExecutorSlurm Executor = "slurm"
)

// Executors lists the executors in documentation order.
var Executors = []Executor{ExecutorLocal, ExecutorSlurm}

// Slurm is what sycbuild asks Slurm for when it makes its own allocation
// (when it does not run inside one): salloc's options.
type Slurm struct {
	Partition string `yaml:"partition"` // -p
	Account   string `yaml:"account"`   // -A
	// Time is the allocation's time limit, in Slurm's forms ("30",
	// "2:00:00", "1-0").
	Time  string `yaml:"time"`
	Nodes int    `yaml:"nodes"` // -N (default: Slurm's, one)
	// Extra are further salloc options, as a list or a shell-quoted
	// string ("--constraint=xeon --qos=debug").
	Extra Args `yaml:"extra"`
}

// slurmTimeRE matches Slurm's time limits: minutes, minutes:seconds,
// hours:minutes:seconds, days-hours, days-hours:minutes,
// days-hours:minutes:seconds, or no limit.
var slurmTimeRE = regexp.MustCompile(`^([0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}|(?i:unlimited|infinite))$`)

// ParseExecutor checks an executor's name (the -executor flag's).
func ParseExecutor(s string) (Executor, error) {
	e := Executor(s)
	if !oneOf(e, Executors) {
		return "", fmt.Errorf("unknown executor %q (want %s)%s", s, list(Executors), didYouMean(s, strings.Fields(list(Executors))))
	}
	return e, nil
}

// validateExecutor checks executor: and slurm:.
func (v *validator) validateExecutor() {
	c := v.c
	if c.Executor != "" {
		if _, err := ParseExecutor(string(c.Executor)); err != nil {
			v.errorf("executor", "executor: %v", err)
		}
	}
	s := c.Slurm
	if s == nil {
		return
	}
	if s.Time != "" && !slurmTimeRE.MatchString(s.Time) {
		v.errorf("slurm.time", "slurm.time: %q is not a Slurm time limit (minutes, H:MM:SS, D-H, D-H:MM:SS, or unlimited)", s.Time)
	}
	if v.c.Field("slurm.nodes").Given() && s.Nodes < 1 {
		v.errorf("slurm.nodes", "slurm.nodes: want at least 1 node, got %d", s.Nodes)
	}
	for _, f := range []struct{ path, value string }{{"slurm.partition", s.Partition}, {"slurm.account", s.Account}} {
		if strings.ContainsAny(f.value, " \t\n") {
			v.errorf(f.path, "%s: %q: a name has no spaces", f.path, f.value)
		}
	}
	for i, a := range s.Extra {
		if !strings.HasPrefix(a, "-") {
			v.errorf("slurm.extra", "slurm.extra: %q (word %d) is not an option: salloc runs no command of the config's", a, i+1)
		}
	}
}
