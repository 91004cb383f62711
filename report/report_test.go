package report

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/graph"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// sampleBuild is a build of two targets on two job slots: an in-process
// action, a fan-out of four modules (one ran, one failed in its second
// command, one up to date, one restored from the shared cache), an action
// not run because of the failure.
// The image of module 0 is written in dir.
func sampleBuild(t *testing.T, dir string) []graph.Event {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "out/module_0.bin"), make([]byte, 3000), 0o644); err != nil {
		t.Fatal(err)
	}
	const mib = 1 << 20
	fail := errors.New(`[spir64_gen] ocloc out/module_1.ll (ocloc): exit status 245
	ocloc -file out/module_1.spv <no message>`)
	gen := "[spir64_gen] ocloc"
	return []graph.Event{
		{Kind: graph.KindAction, Action: 0, Desc: "[spir64] sycl-post-link", Tool: "sycl-post-link",
			Argv: []string{"sycbuild", "sycl-post-link", "-o", "out/t.table"}, Outputs: []string{"out/t.table"},
			Slot: 0, Start: at(0), End: at(10), Outcome: graph.Ran},
		{Kind: graph.KindFanout, Action: 1, Desc: gen, Tool: "llvm-as", Jobs: 3, Outputs: []string{"out/images.list"},
			Slot: -1, Start: at(10), End: at(60), Outcome: graph.Failed},
		{Kind: graph.KindJob, Action: 1, Desc: gen + " out/module_0.ll", Tool: "llvm-as", Item: "out/module_0.ll",
			Outputs: []string{"out/module_0.bc", "out/module_0.bin"}, Slot: 0, Start: at(10), End: at(40), Outcome: graph.Ran, Cache: "remote miss",
			Usage: &graph.Usage{User: 20 * time.Millisecond, System: 5 * time.Millisecond, MaxRSS: 120 * mib, Wall: 30 * time.Millisecond}},
		{Kind: graph.KindCommand, Action: 1, Desc: gen + " out/module_0.ll (llvm-as)", Tool: "llvm-as", Item: "out/module_0.ll",
			Argv: []string{"llvm-as", "out/module_0.ll", "-o", "out/module_0.bc"}, Outputs: []string{"out/module_0.bc"},
			Slot: 0, Start: at(10), End: at(15), Outcome: graph.Ran, Usage: &graph.Usage{MaxRSS: 50 * mib}},
		{Kind: graph.KindCommand, Action: 1, Desc: gen + " out/module_0.ll (ocloc)", Tool: "ocloc", Item: "out/module_0.ll",
			Argv: []string{"ocloc", "-file", "out/module_0.bc", "-o", "out/module_0.bin"}, Outputs: []string{"out/module_0.bin"},
			Slot: 0, Start: at(15), End: at(40), Outcome: graph.Ran, Usage: &graph.Usage{MaxRSS: 120 * mib}},
		{Kind: graph.KindJob, Action: 1, Desc: gen + " out/module_1.ll", Tool: "llvm-as", Item: "out/module_1.ll",
			Outputs: []string{"out/module_1.bc", "out/module_1.bin"}, Slot: 1, Start: at(12), End: at(60), Outcome: graph.Failed, Err: fail,
			Usage: &graph.Usage{User: 30 * time.Millisecond, MaxRSS: 90 * mib, ExitCode: 245}},
		{Kind: graph.KindCommand, Action: 1, Desc: gen + " out/module_1.ll (llvm-as)", Tool: "llvm-as", Item: "out/module_1.ll",
			Argv: []string{"llvm-as", "out/module_1.ll", "-o", "out/module_1.bc"}, Outputs: []string{"out/module_1.bc"},
			Slot: 1, Start: at(12), End: at(17), Outcome: graph.Ran, Usage: &graph.Usage{MaxRSS: 50 * mib}},
		{Kind: graph.KindCommand, Action: 1, Desc: gen + " out/module_1.ll (ocloc)", Tool: "ocloc", Item: "out/module_1.ll",
			Argv: []string{"ocloc", "-file", "out/module_1.bc", "-o", "out/module_1.bin"}, Outputs: []string{"out/module_1.bin"},
			Slot: 1, Start: at(17), End: at(60), Outcome: graph.Failed, Err: fail, Usage: &graph.Usage{MaxRSS: 90 * mib, ExitCode: 245}},
		{Kind: graph.KindJob, Action: 1, Desc: gen + " out/module_2.ll", Tool: "llvm-as", Item: "out/module_2.ll",
			Outputs: []string{"out/module_2.bc", "out/module_2.bin"}, Slot: -1, Outcome: graph.UpToDate},
		{Kind: graph.KindJob, Action: 1, Desc: gen + " out/module_3.ll", Tool: "llvm-as", Item: "out/module_3.ll",
			Outputs: []string{"out/module_3.bc", "out/module_3.bin"}, Slot: 0, Start: at(40), End: at(42), Outcome: graph.Restored, Cache: "remote hit"},
		{Kind: graph.KindAction, Action: 2, Desc: "[spir64_gen] file-table-tform --replace=Code,Code", Tool: "file-table-tform",
			Outputs: []string{"out/t1.table"}, Slot: -1, Outcome: graph.NotRun},
	}
}

// feed tells r the events, with a message, reasons and the summary.
func feed(r *Report, events []graph.Event) {
	r.Planned(len(events))
	r.OutOfDate("out/t.table", []string{"no record of an earlier build"})
	r.OutOfDate("out/module_0.bc", []string{"no record of an earlier build", "input out/module_0.ll changed"})
	for _, e := range events {
		if !e.Start.IsZero() {
			r.Started(e)
		}
		r.Finished(e)
	}
	r.Message("sycbuild: warning: <b>ocloc</b> & friends")
	r.Summary(&graph.Result{Actions: 3, Ran: 1, Failed: 1, NotRun: 1, JobsRan: 1, JobsCached: 1, JobsFailed: 1, Elapsed: 62 * time.Millisecond})
}

func render(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// section returns the text of the page's section with the given id.
func section(t *testing.T, page, id string) string {
	t.Helper()
	start := strings.Index(page, `<section id="`+id+`"`)
	if start < 0 {
		start = strings.Index(page, `id="`+id+`">`)
	}
	if start < 0 {
		t.Fatalf("no section %q in the page", id)
	}
	end := strings.Index(page[start:], "</section>")
	if end < 0 {
		t.Fatalf("section %q is not closed", id)
	}
	return page[start : start+end]
}

func TestPage(t *testing.T) {
	dir := t.TempDir()
	r := New(Options{Title: "build of <x>", Dir: dir})
	feed(r, sampleBuild(t, dir))
	page := render(t, r)

	checks := []struct {
		where, what string
		n           int
	}{
		{"", "<title>build of &lt;x&gt;</title>", 1},
		// 1 action + 1 fan-out + 3 jobs + 4 commands ran (or were
		// restored); 3 of them failed.
		{"timeline", `<rect class="bar`, 9},
		{"timeline", `fill="` + restoredColor + `"`, 2}, // the bar and the legend
		{"timeline", `<rect class="bar failed"`, 3},
		{"timeline", `data-kind="command"`, 4},
		{"timeline", `data-kind="fan-out"`, 1},
		{"timeline", `>slot 0</text>`, 1},
		{"timeline", `>slot 1</text>`, 1},
		{"timeline", `>fan-outs</text>`, 1},
		// The failed command is listed once: its job's error is the same,
		// and the fan-out failed because of its job.
		{"failures", `data-failure="1"`, 1},
		{"failures", "exit status 245", 2},
		{"failures", "<code>ocloc -file out/module_1.bc -o out/module_1.bin</code>", 1},
		{"messages", `<span class="warning">sycbuild: warning: &lt;b&gt;ocloc&lt;/b&gt; &amp; friends</span>`, 1},
		{"targets", `<tr data-target="spir64">`, 1},
		{"targets", `<tr data-target="spir64_gen">`, 1},
		{"slowest", `<tr data-command="1"`, 5},
		{"slowest", `<tr data-command="1" class="failed"><td class="num" data-v="43000000">43.0 ms</td>`, 1},
		{"modules", `<tr data-module="1"`, 4},
		{"modules", `<td>restored <span class="none">(remote hit)</span></td>`, 1},
		{"modules", `<td>ran <span class="none">(remote miss)</span></td>`, 1},
		{"modules", `data-v="3000">2.9 KiB</td><td><code>out/module_0.bin</code>`, 1},
		{"modules", `<td>up to date</td>`, 1},
		{"memory", `<tr data-usage="1">`, 2},
		{"memory", `data-v="125829120">120.0 MiB`, 1},
		{"memory", `<rect class="fill" width="75.0"`, 1}, // 90 of 120 MiB
		{"outcomes", `data-outcome="ran"`, 1},
		{"outcomes", `data-outcome="up to date"`, 1},
		{"outcomes", `data-outcome="failed"`, 1},
		{"outcomes", `data-outcome="not run"`, 1},
		{"outcomes", `data-outcome="restored"`, 1},
		{"targets", `<td class="none">1 ran · 1 up to date · 1 failed · 1 restored</td>`, 1},
		{"summary", `<div class="l">shared cache</div><div class="v">1 hit</div><div class="n">1 remote hit · 1 remote miss</div>`, 1},
		{"summary", `<div class="l">module jobs</div><div class="v">4</div>`, 1},
		{"cache", `<td class="num">2</td><td>no record of an earlier build</td>`, 1},
		{"summary", "62.0 ms", 1},
		{"summary", `<div class="card bad"><div class="l">result</div><div class="v">failed</div>`, 1},
	}
	for _, c := range checks {
		text := page
		if c.where != "" {
			text = section(t, page, c.where)
		}
		if n := strings.Count(text, c.what); n != c.n {
			t.Errorf("%s: %q occurs %d times, want %d", c.where, c.what, n, c.n)
		}
	}
	if t.Failed() {
		t.Logf("page:\n%s", page)
	}
}

// TestDeterministic feeds the same events in other orders, from several
// goroutines: the page is the same.
func TestDeterministic(t *testing.T) {
	dir := t.TempDir()
	events := sampleBuild(t, dir)
	r := New(Options{Dir: dir})
	feed(r, events)
	want := render(t, r)
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 5 {
		shuffled := append([]graph.Event(nil), events...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		r := New(Options{Dir: dir})
		var wg sync.WaitGroup
		for _, e := range shuffled {
			wg.Go(func() { r.Finished(e) })
		}
		wg.Wait()
		r.OutOfDate("out/module_0.bc", []string{"input out/module_0.ll changed", "no record of an earlier build"})
		r.OutOfDate("out/t.table", []string{"no record of an earlier build"})
		r.Message("sycbuild: warning: <b>ocloc</b> & friends")
		r.Summary(&graph.Result{Actions: 3, Ran: 1, Failed: 1, NotRun: 1, JobsRan: 1, JobsCached: 1, JobsFailed: 1, Elapsed: 62 * time.Millisecond})
		if got := render(t, r); got != want {
			t.Fatalf("round %d: the page differs with the events in another order", round)
		}
	}
}

// TestFallback: a module job whose AOT compile failed and whose SPIR-V
// stands in is listed as a fallback, not as a failure.
func TestFallback(t *testing.T) {
	r := New(Options{})
	job := "[spir64_gen] ocloc out/module_4.ll"
	fail := errors.New(job + " (ocloc): exit status 245")
	r.Finished(graph.Event{Kind: graph.KindCommand, Action: 1, Desc: job + " (llvm-spirv)", Tool: "llvm-spirv", Item: "out/module_4.ll",
		Argv: []string{"llvm-spirv", "out/module_4.bc"}, Slot: 0, Start: at(0), End: at(10), Outcome: graph.Ran})
	r.Finished(graph.Event{Kind: graph.KindCommand, Action: 1, Desc: job + " (ocloc)", Tool: "ocloc", Item: "out/module_4.ll",
		Argv: []string{"ocloc", "compile", "-file", "out/module_4.spv"}, Slot: 0, Start: at(10), End: at(30), Outcome: graph.Failed, Err: fail,
		Usage: &graph.Usage{ExitCode: 245}})
	r.Finished(graph.Event{Kind: graph.KindJob, Action: 1, Desc: job, Tool: "llvm-spirv", Item: "out/module_4.ll",
		Outputs: []string{"out/module_4.spv", "out/module_4.bin"}, Slot: 0, Start: at(0), End: at(30), Outcome: graph.Ran,
		Fallback: "ocloc failed (exit status 245); out/module_4.spv stands in"})
	r.Message("sycbuild: warning: " + job + ": ocloc failed (exit status 245); out/module_4.spv stands in, to be compiled when the program runs")
	r.Summary(&graph.Result{Actions: 1, Ran: 1, JobsRan: 1, Fallbacks: []string{"out/module_4.ll: ocloc failed"}})
	page := render(t, r)
	for _, c := range []struct{ where, what string }{
		{"failures", `<p class="none">No failures.</p>`},
		{"fallbacks", `<div class="what">[spir64_gen] ocloc out/module_4.ll <span class="none">(spir64_gen)</span></div>
<div>ocloc failed (exit status 245); out/module_4.spv stands in</div><div><code>ocloc compile -file out/module_4.spv</code> <span class="none">(exit status 245)</span></div>`},
		{"summary", `<div class="card warn"><div class="l">fallbacks</div><div class="v">1</div>`},
		{"summary", `<div class="l">result</div><div class="v">succeeded</div>`},
		{"timeline", `<rect class="bar fallback" data-kind="job"`},
		{"timeline", `<rect class="bar failed" data-kind="command"`},
		{"modules", `<tr data-module="1" class="fellback"><td>spir64_gen</td><td>out/module_4.ll</td><td class="kernels"></td><td>ran, fell back</td>`},
		{"targets", `<td class="none">1 ran (1 fell back)</td>`},
		{"messages", `<span class="warning">sycbuild: warning: [spir64_gen] ocloc out/module_4.ll: ocloc failed`},
	} {
		if !strings.Contains(section(t, page, c.where), c.what) {
			t.Errorf("%s lacks %q:\n%s", c.where, c.what, section(t, page, c.where))
		}
	}
}

// TestIsolatedFailure: a job whose command failed is one failure, with
// the command's line and the job's error, which names the kernels that
// fail alone.
func TestIsolatedFailure(t *testing.T) {
	r := New(Options{})
	job := "[spir64_gen] ocloc out/module_0.ll"
	cmdErr := "FAILED: " + job + " (ocloc) (exit status 245)"
	long := strings.Repeat("-spirv-ext=SPV_INTEL_x,", 20)
	r.Finished(graph.Event{Kind: graph.KindCommand, Action: 1, Desc: job + " (ocloc)", Tool: "ocloc", Item: "out/module_0.ll",
		Argv: []string{"ocloc", "compile", "-file", "out/module_0.spv", long}, Slot: 0, Start: at(0), End: at(30), Outcome: graph.Failed,
		Err: errors.New(cmdErr), Usage: &graph.Usage{ExitCode: 245}})
	r.Finished(graph.Event{Kind: graph.KindJob, Action: 1, Desc: job, Tool: "llvm-as", Item: "out/module_0.ll", Slot: 0,
		Start: at(0), End: at(90), Outcome: graph.Failed, Err: errors.New(cmdErr + "\n  isolated: 1 of its 2 kernels fail alone: _ZTS6VecAdd")})
	page := render(t, r)
	failures := section(t, page, "failures")
	if n := strings.Count(failures, `data-failure="1"`); n != 1 {
		t.Errorf("%d failures listed, want the job's alone:\n%s", n, failures)
	}
	for _, want := range []string{
		`<div class="what">[spir64_gen] ocloc out/module_0.ll <span class="none">(job, exit status 245)</span></div>`,
		"<code>ocloc compile -file out/module_0.spv ",
		"isolated: 1 of its 2 kernels fail alone: _ZTS6VecAdd</pre>",
	} {
		if !strings.Contains(failures, want) {
			t.Errorf("the failure lacks %q:\n%s", want, failures)
		}
	}
	// The slowest commands show a long command line cut, whole in its
	// tooltip.
	slow := section(t, page, "slowest")
	full := "ocloc compile -file out/module_0.spv " + long
	if !strings.Contains(slow, `<code title="`+full+`">`+cut(full, maxCommandText)+`</code>`) {
		t.Errorf("the long command is not cut with a tooltip:\n%s", slow)
	}
}

// TestUpToDate: a build with nothing to do still counts the jobs of its
// fan-outs, which report only how many they have.
func TestUpToDate(t *testing.T) {
	r := New(Options{})
	r.Finished(graph.Event{Kind: graph.KindAction, Desc: "[spir64] sycl-post-link", Slot: -1, Outcome: graph.UpToDate})
	r.Finished(graph.Event{Kind: graph.KindFanout, Action: 1, Desc: "[spir64] llvm-spirv", Jobs: 4, Slot: -1, Outcome: graph.UpToDate})
	r.Finished(graph.Event{Kind: graph.KindFanout, Action: 2, Desc: "[spir64_gen] ocloc", Jobs: 3, Slot: -1, Outcome: graph.Failed})
	r.Finished(graph.Event{Kind: graph.KindJob, Action: 2, Desc: "[spir64_gen] ocloc m0", Item: "m0", Slot: 0, Start: at(0), End: at(1),
		Outcome: graph.Failed, Err: errors.New("m0 does not exist")})
	page := render(t, r)
	for _, c := range []struct{ where, what string }{
		{"summary", `<div class="l">module jobs</div><div class="v">7</div><div class="n">4 up to date · 1 failed · 2 not run</div>`},
		{"summary", `<div class="l">peak memory</div><div class="v">–</div>`},
		{"summary", `<div class="n">on 1 job slot</div>`},
		{"targets", `<td class="num">4</td><td class="none">4 up to date</td>`},
		{"targets", `<td class="num">3</td><td class="none">1 failed · 2 not run</td>`},
		{"outcomes", `<tr><td>jobs</td><td class="num">4</td><td class="num">1</td><td class="num">2</td></tr>`},
		{"targets", `<tr data-target="spir64"><td>spir64</td><td class="num">2</td><td class="none">2 up to date</td><td class="num">4</td><td class="none">4 up to date</td><td class="num" data-v="-1">–</td><td class="num" data-v="-1">–</td><td class="num" data-v="-1">–</td>`},
	} {
		if !strings.Contains(section(t, page, c.where), c.what) {
			t.Errorf("%s lacks %q:\n%s", c.where, c.what, section(t, page, c.where))
		}
	}
}

// TestNewOutcome: an outcome this package does not know is counted and
// named like the others.
func TestNewOutcome(t *testing.T) {
	r := New(Options{})
	remote := graph.Outcome(99)
	r.Finished(graph.Event{Kind: graph.KindJob, Desc: "[spir64] llvm-spirv m.ll", Item: "m.ll", Slot: -1, Outcome: remote})
	r.Finished(graph.Event{Kind: graph.KindJob, Desc: "[spir64] llvm-spirv n.ll", Item: "n.ll", Slot: 0, Start: at(0), End: at(5), Outcome: graph.Ran})
	page := render(t, r)
	want := outcomeName(remote)
	if !strings.Contains(section(t, page, "cache"), `data-outcome="`+want+`"`) {
		t.Errorf("no column for outcome %q:\n%s", want, section(t, page, "cache"))
	}
	if !strings.Contains(section(t, page, "modules"), "<td>"+want+"</td>") {
		t.Errorf("module row without outcome %q", want)
	}
}

// TestEmpty: a report of nothing is still a whole page.
func TestEmpty(t *testing.T) {
	page := render(t, New(Options{}))
	for _, want := range []string{"<title>sycbuild build report</title>", "Nothing ran.", `<div class="n">nothing ran</div>`, "No failures.", "No module jobs.", "</html>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the empty page lacks %q", want)
		}
	}
}

// TestSelfContained: nothing in the page is fetched from elsewhere.
func TestSelfContained(t *testing.T) {
	dir := t.TempDir()
	r := New(Options{Dir: dir})
	feed(r, sampleBuild(t, dir))
	page := render(t, r)
	for _, bad := range []string{"http://", "https://", " src=", "<link", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
}

func TestEscaping(t *testing.T) {
	r := New(Options{})
	evil := `[t] <script>alert(1)</script>`
	r.Finished(graph.Event{Kind: graph.KindAction, Desc: evil, Tool: `"><img>`, Argv: []string{"sh", "-c", "</code><script>"},
		Slot: 0, Start: at(0), End: at(500), Outcome: graph.Failed, Err: errors.New("</pre><script>x()</script>")})
	page := render(t, r)
	if n := strings.Count(page, "<script"); n != 1 {
		t.Errorf("%d script elements, want the page's own one", n)
	}
	if strings.Contains(page, "<img") || strings.Contains(page, "</code><script>") {
		t.Errorf("unescaped text in the page")
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	r := New(Options{})
	name := filepath.Join(dir, "report.html")
	if err := r.WriteFile(name); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(name); err != nil || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Errorf("read back %.40q, %v", b, err)
	}
	bad := filepath.Join(dir, "missing", "report.html")
	if err := r.WriteFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("writing into a missing directory: %v, want an error naming %s", err, bad)
	}
}

func TestTargetOfDesc(t *testing.T) {
	for desc, want := range map[string]string{
		"[spir64_gen] sycl-post-link":              "spir64_gen",
		"[spir64] llvm-spirv out/m_0.ll (llvm-as)": "spir64",
		"clang-offload-wrapper out/device.o":       "",
		"[unclosed":                                "",
		"":                                         "",
		"[]":                                       "",
	} {
		if got := TargetOfDesc(graph.Event{Desc: desc}); got != want {
			t.Errorf("TargetOfDesc(%q) = %q, want %q", desc, got, want)
		}
	}
}

func TestFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0 s", 850 * time.Microsecond: "850 µs", 42100 * time.Microsecond: "42.1 ms",
		250 * time.Millisecond: "250 ms", 3250 * time.Millisecond: "3.25 s", 125 * time.Second: "2 min 05 s",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 4096: "4.0 KiB", 127087820: "121.2 MiB", 3 << 40: "3.0 TiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"module_2", "module_10", -1}, {"module_10", "module_2", 1}, {"m1", "m1", 0},
		{"m01", "m1", -1}, {"a", "ab", -1}, {"x9y", "x10", -1}, {"b", "a10", 1},
	} {
		if got := naturalCompare(c.a, c.b); got != c.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got := cut("héllo wörld", 5); got != "héll…" {
		t.Errorf("cut = %q", got)
	}
}

// TestNodes: when some work ran on another machine, the module and
// command tables name each one's node ("here" for this machine); a local
// build's page has no node column.
func TestNodes(t *testing.T) {
	dir := t.TempDir()
	local := render(t, func() *Report { r := New(Options{Dir: dir}); feed(r, sampleBuild(t, dir)); return r }())
	if strings.Contains(local, "<th>node</th>") {
		t.Errorf("a local build's page has a node column")
	}
	events := sampleBuild(t, dir)
	for i := range events {
		if events[i].Item == "out/module_1.ll" {
			events[i].Where = graph.Where{Node: "gpu-node-3", ID: "41.7"}
		}
	}
	r := New(Options{Dir: dir})
	feed(r, events)
	page := render(t, r)
	for _, c := range []struct {
		where, what string
		n           int
	}{
		{"modules", "<th>node</th>", 1},
		{"modules", "<td>gpu-node-3</td>", 1}, // module 1's job
		{"modules", "<code>out/module_0.bin</code></td><td>here</td>", 1},
		{"modules", "<code>out/module_2.bin</code></td><td></td>", 1}, // up to date: ran nowhere
		{"slowest", "<th>node</th>", 1},
		{"slowest", "<td>gpu-node-3</td>", 2}, // its two commands
		{"slowest", "<td>here</td>", 3},
	} {
		if n := strings.Count(section(t, page, c.where), c.what); n != c.n {
			t.Errorf("%s: %q occurs %d times, want %d", c.where, c.what, n, c.n)
		}
	}
	if t.Failed() {
		t.Logf("page:\n%s", page)
	}
}
