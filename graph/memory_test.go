package graph

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/jobs"
)

// The memory stand-in: the test binary, run with SYCBUILD_STANDIN_ALLOC
// set, touches that many bytes, writes "+" and later "-" to the file named
// by SYCBUILD_STANDIN_LOG (appends, so the file's order is the order of
// events), and writes its output file.
func TestMain(m *testing.M) {
	if n := os.Getenv("SYCBUILD_STANDIN_ALLOC"); n != "" {
		os.Exit(allocStandIn(n))
	}
	os.Exit(m.Run())
}

func allocStandIn(n string) int {
	size, err := strconv.Atoi(n)
	if err != nil {
		return 2
	}
	logf, err := os.OpenFile(os.Getenv("SYCBUILD_STANDIN_LOG"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return 2
	}
	defer logf.Close()
	logf.WriteString("+")
	buf := make([]byte, size)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1 // resident, not just reserved
	}
	time.Sleep(50 * time.Millisecond) // overlap enough to be seen, were the budget not kept
	logf.WriteString("-")
	if len(os.Args) > 1 {
		os.WriteFile(os.Args[len(os.Args)-1], []byte{buf[0]}, 0o644)
	}
	return 0
}

// peakOf returns the most "+" not yet matched by "-" in an event string.
func peakOf(events string) int {
	peak, cur := 0, 0
	for _, c := range events {
		if c == '+' {
			cur++
		} else {
			cur--
		}
		peak = max(peak, cur)
	}
	return peak
}

// memBuild builds n units of the stand-in, each touching alloc bytes, on
// 8 job tokens under a memory budget; it returns the most that ran at
// once and the result.
func memBuild(t *testing.T, tb *testBuild, n, alloc int, budget int64, toolMemory int64) (int, *Result) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	logPath := tb.dir + "/events"
	os.Remove(logPath)
	t.Setenv("SYCBUILD_STANDIN_ALLOC", strconv.Itoa(alloc))
	t.Setenv("SYCBUILD_STANDIN_LOG", logPath)
	tool := &Tool{Name: "standin", Path: self, Version: "1", Memory: toolMemory}
	if len(tb.g.actions) == 0 {
		for i := range n {
			out := fmt.Sprintf("o%d", i)
			tb.write(fmt.Sprintf("i%d", i), strings.Repeat("x", 100))
			tb.g.Add(&Action{Desc: out, Tool: tool, Argv: []string{self, fmt.Sprintf("i%d", i), out},
				In: []*Node{tb.g.File(fmt.Sprintf("i%d", i), Plain)}, Out: []*Node{tb.g.File(out, Plain)}})
		}
	} else {
		for _, a := range tb.g.actions {
			a.Tool = tool
		}
	}
	opt := tb.opts()
	opt.Pool = jobs.NewPool(8) // room for all: only the budget holds them back
	opt.Memory = budget
	res := tb.build(opt)
	events, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(events), "+") != res.Ran {
		t.Fatalf("%d stand-ins ran for %d actions", strings.Count(string(events), "+"), res.Ran)
	}
	return peakOf(string(events)), res
}

// TestMemoryBudget: with a budget of B and units of X each, no more than
// B/X run at once though the pool has room for more; a unit larger than
// the budget runs alone; the build finishes either way. Later builds
// predict from the peaks the log recorded.
func TestMemoryBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 8 × 48 MB")
	}
	const x = 48 << 20
	tb := newTestBuild(t)
	// The tools say they need X: three fit in 3.5 X.
	peak, res := memBuild(t, tb, 8, x, 3*x+x/2, x)
	if res.Ran != 8 || peak > 3 {
		t.Errorf("budget 3.5 X: %d ran, %d at once (want at most 3)", res.Ran, peak)
	}
	// Each recorded its peak; a new build of the same tool (its outputs
	// removed) predicts from them, though the tool now claims nothing.
	for i := range 8 {
		os.Remove(fmt.Sprintf("%s/o%d", tb.dir, i))
	}
	peak, res = memBuild(t, tb, 8, x, 3*x+x/2, 0)
	if res.Ran != 8 || peak > 3 {
		t.Errorf("from history: %d ran, %d at once (want at most 3)", res.Ran, peak)
	}
	// A budget smaller than one unit: each runs alone, and all run.
	for i := range 8 {
		os.Remove(fmt.Sprintf("%s/o%d", tb.dir, i))
	}
	peak, res = memBuild(t, tb, 8, x, x/2, x)
	if res.Ran != 8 || peak != 1 {
		t.Errorf("budget X/2: %d ran, %d at once (want 1)", res.Ran, peak)
	}
}

// TestLogRecordsPeak: the build log keeps each command's peak memory.
func TestLogRecordsPeak(t *testing.T) {
	rec := &record{name: "a", key: "k", cmd: "c", maxRSS: 123 << 20, wall: int64(2 * time.Second)}
	got := parseRecord(strings.TrimSuffix(rec.line(), "\n"))
	if got == nil || got.maxRSS != rec.maxRSS || got.wall != rec.wall {
		t.Errorf("round trip of %q: %+v", rec.line(), got)
	}
	old := "a\tk\t\tc\t\t" // a record written before usage was logged
	if r := parseRecord(old); r == nil || r.maxRSS != 0 {
		t.Errorf("old record: %+v", r)
	}
}

// TestTimeout: a command that outlives its tool's timeout is stopped and
// fails, saying so.
func TestTimeout(t *testing.T) {
	tb := newTestBuild(t)
	tool := &Tool{Name: "sleepy", Path: "sh", Version: "1", Timeout: 200 * time.Millisecond}
	tb.g.Add(&Action{Desc: "hang", Tool: tool, Argv: []string{"sh", "-c", `sleep 30 & wait; echo done > "$1"`, "sh", "out"},
		Out: []*Node{tb.g.File("out", Plain)}})
	res, err := tb.g.Build(context.Background(), tb.opts())
	if err == nil || res.Failed != 1 {
		t.Fatalf("err %v, %+v", err, res)
	}
	if !strings.Contains(tb.log.String(), "FAILED: hang (timed out after 200ms, stopped)") {
		t.Errorf("log:\n%s", tb.log.String())
	}
}

// TestPredict: a prediction takes the largest peak of the nearest size
// class recorded, scales it up for larger inputs, and falls back on the
// tools' guess.
func TestPredict(t *testing.T) {
	var m memModel
	tools := []string{"t"}
	m.add(tools, 1100, 10<<20)
	m.add(tools, 1500, 30<<20) // same class (1024..2047): the larger peak stays
	m.add(tools, 1<<20, 500<<20)
	unit := func(size int64) *unit {
		return &unit{tools: []*Tool{{Memory: 7}}, parts: keyParts{tools: tools, inputs: []fileState{{size: size}}}}
	}
	for _, c := range []struct {
		size, want int64
	}{
		{1050, 30 << 20},     // the class's largest
		{1500, 30 << 20},     // as large as the recorded input: as recorded
		{3000, 60 << 20},     // class 2048..4095 is empty: the nearest is 1024..2047, scaled by 3000/1500
		{1 << 20, 500 << 20}, // its own class
		{600, 30 << 20},      // class 512..1023 is empty: the nearest recorded one above
	} {
		if got, known := m.predict(unit(c.size)); got != c.want || !known {
			t.Errorf("predict(%d) = %d, want %d", c.size, got, c.want)
		}
	}
	if got, known := (&memModel{}).predict(unit(5)); got != 7 || !known {
		t.Errorf("without history: %d (known %v), want the tool's 7", got, known)
	}
	bare := unit(5)
	bare.tools = []*Tool{{}}
	if got, known := (&memModel{}).predict(bare); got != defaultMemory || known {
		t.Errorf("without history or a tool's guess: %d (known %v), want the default, unknown", got, known)
	}
}
