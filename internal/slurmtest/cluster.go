//go:build linux

// Package slurmtest starts a one-machine Slurm cluster for tests: munged with
// a key of its own, slurmctld and slurmd on loopback ports, one node with
// this machine's CPUs, all under the test's temporary directory, with no
// systemd and nothing of the system's Slurm or munge touched. Everything it
// starts is stopped when the test ends.
//
// It needs root (slurmd runs tasks as their user) and Debian's slurmctld,
// slurmd, slurm-client and munge; without them a test skips, but in CI it
// fails.
package slurmtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// Cluster is a running one-machine cluster.
type Cluster struct {
	Dir  string   // where its configuration, state and logs are
	Conf string   // its slurm.conf
	Node string   // the one node's name
	CPUs int      // the node's CPUs
	Env  []string // this process's environment with SLURM_CONF set, for Slurm's commands
}

// Start starts a cluster for t and stops it when t ends.
func Start(t testing.TB) *Cluster {
	t.Helper()
	needTools(t)
	// The test's temporary directory can be too long for munge's socket
	// path (108 bytes), so the cluster lives in a short one of its own.
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), Node: "node0", CPUs: runtime.NumCPU()}
	ds := &daemons{t: t}
	t.Cleanup(func() { c.stop(t, ds) })
	for _, d := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// munged checks that its socket's directory is private to it and that
	// what leads to it can be searched by everyone.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key, socket := filepath.Join(dir, "munge", "munge.key"), filepath.Join(dir, "munge", "socket")
	if out, err := exec.Command("mungekey", "-c", "-k", key).CombinedOutput(); err != nil {
		t.Fatalf("mungekey: %v\n%s", err, out)
	}
	ds.start("munged", "--foreground", "--force", "--key-file="+key, "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "munge", "munged.pid"), "--seed-file="+filepath.Join(dir, "munge", "seed"),
		"--log-file="+filepath.Join(dir, "log", "munged.log"))

	ports := freePorts(t, 2)
	ctldPort, nodePort := ports[0], ports[1]
	memMB := nodeMemoryMB()
	conf := fmt.Sprintf(slurmConf, c.Node, ctldPort, nodePort, socket, dir, c.CPUs, hostname(t), memMB)
	if err := os.WriteFile(c.Conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	// The cluster uses no cgroup (proctrack/linuxproc, task/none), but
	// slurmd starts its cgroup plugin anyway, and cgroup/v2's start needs
	// systemd's D-Bus or a writable cgroup tree, which a container lacks;
	// cgroup/v1's asks for nothing.
	if err := os.WriteFile(filepath.Join(dir, "cgroup.conf"), []byte("CgroupPlugin=cgroup/v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Env = append(os.Environ(), "SLURM_CONF="+c.Conf)
	// Only this cluster's settings reach the tests' Slurm commands.
	c.Env = withoutAllocation(c.Env)
	ds.start("slurmctld", "-D", "-f", c.Conf)
	ds.start("slurmd", "-D", "-f", c.Conf, "-N", c.Node)
	c.waitIdle(t)
	return c
}

// slurmConf is the cluster's slurm.conf, formatted with the node's name, the
// controller's and the node daemon's ports, munge's socket, the cluster's
// directory, the node's CPUs, its host name and its memory in MB.
const slurmConf = `ClusterName=sycbuildtest
SlurmctldHost=%[7]s(127.0.0.1)
MailProg=/bin/true
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%[4]s
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=1
JobAcctGatherParams=OverMemoryKill
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/log/slurmctld.log
SlurmdLogFile=%[5]s/log/slurmd.log
NodeName=%[1]s NodeHostname=%[7]s NodeAddr=127.0.0.1 CPUs=%[6]d RealMemory=%[8]d State=UNKNOWN
PartitionName=test Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`

// needTools skips t (or fails it where tools are checked) without Slurm's
// and munge's programs or without root.
func needTools(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"munged", "mungekey", "slurmctld", "slurmd", "srun", "salloc", "squeue", "scancel", "sinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, tool+" (Debian's slurmctld, slurmd, slurm-client and munge; scripts/install-toolchain.sh installs them)")
		}
	}
	if os.Geteuid() != 0 {
		testenv.SkipNotChecked(t, "a Slurm cluster: slurmd runs a test cluster's tasks only as root")
	}
}

// daemon is one of the cluster's running daemons.
type daemon struct {
	cmd    *exec.Cmd
	exited chan error
}

// daemons are the cluster's daemons started for t, in order.
type daemons struct {
	t       testing.TB
	started []daemon
}

// start starts the daemon argv, failing the test if it exits at once.
func (ds *daemons) start(argv ...string) {
	cmd := exec.Command(argv[0], argv[1:]...)
	// A test binary killed outright takes its cluster with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		ds.t.Fatalf("%s: %v", argv[0], err)
	}
	// A daemon that exits at once says why.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		ds.t.Fatalf("%s exited at start: %v\n%s", strings.Join(argv, " "), err, out.String())
	case <-time.After(200 * time.Millisecond):
		ds.started = append(ds.started, daemon{cmd, exited})
	}
}

// stop kills the daemons ds started, last first, logs the ends of the
// daemons' logs if t failed and removes the cluster's directory.
func (c *Cluster) stop(t testing.TB, ds *daemons) {
	for i := len(ds.started) - 1; i >= 0; i-- {
		ds.started[i].cmd.Process.Kill()
		<-ds.started[i].exited
	}
	if t.Failed() {
		for _, log := range []string{"slurmctld.log", "slurmd.log", "munged.log"} {
			if b, err := os.ReadFile(filepath.Join(c.Dir, "log", log)); err == nil {
				t.Logf("%s:\n%s", log, tail(b, 3000))
			}
		}
	}
	os.RemoveAll(c.Dir)
}

// waitIdle waits for the node to be idle, which it is within seconds.
func (c *Cluster) waitIdle(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := c.Command("sinfo", "-h", "-n", c.Node, "-o", "%t").Output()
		if err == nil && strings.TrimSpace(string(out)) == "idle" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the test cluster's node is not idle after 30 s: sinfo said %q (%v)", out, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Command is a Slurm command run against the cluster.
func (c *Cluster) Command(argv ...string) *exec.Cmd {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = c.Env
	return cmd
}

// Steps lists the job steps the cluster runs now, as squeue --steps sees
// them ("JOBID.STEPID NAME" a line), and the jobs ("JOBID NAME STATE").
func (c *Cluster) Steps(t testing.TB) (steps, jobs []string) {
	t.Helper()
	for _, q := range []struct {
		args []string
		into *[]string
	}{{[]string{"squeue", "--steps", "-h", "-o", "%i %j"}, &steps}, {[]string{"squeue", "-h", "-o", "%i %j %T"}, &jobs}} {
		out, err := c.Command(q.args...).Output()
		if err != nil {
			t.Fatalf("%s: %v", strings.Join(q.args, " "), err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if line != "" {
				*q.into = append(*q.into, line)
			}
		}
	}
	return steps, jobs
}

// NodeLog is slurmd's log so far: it names every step it launches
// ("launch task StepId=J.S").
func (c *Cluster) NodeLog() string {
	b, _ := os.ReadFile(filepath.Join(c.Dir, "log", "slurmd.log"))
	return string(b)
}

// withoutAllocation drops the variables by which Slurm's commands would
// think themselves inside an allocation of another cluster.
func withoutAllocation(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, "SLURM_") && !strings.HasPrefix(kv, "SLURM_CONF=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// freePorts returns n distinct ports free on every address now, taken
// below the kernel's range of ephemeral ports: a port from that range,
// free when asked, may become the local port of any process's next
// outgoing connection before the daemon binds it (slurmd once failed so,
// "Address already in use").
func freePorts(t testing.TB, n int) []int {
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if v, err := strconv.Atoi(f[0]); err == nil && v > 11000 {
				low = v
			}
		}
	}
	var ports []int
	for try := 0; len(ports) < n; try++ {
		if try == 1000 {
			t.Fatalf("no %d free ports between 10000 and %d", n, low)
		}
		p := 10000 + rand.IntN(low-10000)
		if slices.Contains(ports, p) {
			continue
		}
		l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		l.Close()
		ports = append(ports, p)
	}
	return ports
}

// nodeMemoryMB is the node's RealMemory: this machine's memory in MiB, less
// a tenth for what runs beside the cluster (4096 where the kernel does not
// say). Steps ask for memory (--mem) by the build's predictions, so a
// smaller node would run fewer at once than its CPUs allow.
func nodeMemoryMB() int {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil || si.Totalram == 0 {
		return 4096
	}
	mb := si.Totalram * uint64(si.Unit) >> 20
	return int(mb * 9 / 10)
}

func hostname(t testing.TB) string {
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// Atoi is strconv.Atoi for tests that read Slurm's numbers.
func Atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}
