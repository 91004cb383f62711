package report

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/internal/testenv"
)

// Screenshots are this size.
const shotWidth, shotHeight = 1400, 1000

// browse opens the page file in headless Chromium, as a reader would,
// with no network: it returns the DOM once the page's script has run, and
// writes a screenshot to shot. It fails the test when Chromium does, or
// when the console shows anything (an exception, a resource that could
// not be loaded).
func browse(t *testing.T, page, shot string) string {
	t.Helper()
	bin := testenv.Tool(t, "chromium")
	abs, err := filepath.Abs(page)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(),
		"--host-resolver-rules=MAP * ~NOTFOUND", // the page must need no network
		"--force-device-scale-factor=1",
		"--window-size="+strconv.Itoa(shotWidth)+","+strconv.Itoa(shotHeight),
		"--enable-logging=stderr", "--v=0",
		"--screenshot="+shot, "--dump-dom",
		"file://"+filepath.ToSlash(abs))
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			t.Errorf("the page wrote to the console: %s", line)
		}
	}
	return stdout.String()
}

// checkDOM checks that the page's script ran to its end without an
// exception: it marks the body with data-ok, or data-error.
func checkDOM(t *testing.T, dom string) {
	t.Helper()
	if i := strings.Index(dom, `data-error="`); i >= 0 {
		end := strings.IndexByte(dom[i+12:], '"')
		t.Fatalf("the page's script failed: %s", dom[i+12:i+12+max(end, 0)])
	}
	if !strings.Contains(dom, `<body data-ok="1">`) {
		t.Fatalf("the page's script did not run to its end; DOM:\n%.2000s", dom)
	}
}

// checkShot checks that shot is a PNG screenshot of the window showing
// the page: mostly white, with text, and with every colour of want
// somewhere (the timeline's bars).
func checkShot(t *testing.T, shot string, want ...string) {
	t.Helper()
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	if b := img.Bounds(); b.Dx() != shotWidth || b.Dy() != shotHeight {
		t.Errorf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), shotWidth, shotHeight)
	}
	colors := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}]++
		}
	}
	white := colors[color.RGBA{255, 255, 255, 255}]
	if total := b.Dx() * b.Dy(); white > total*98/100 || white < total/3 {
		t.Errorf("screenshot: %d of %d pixels white, want a page with content on white", white, total)
	}
	if len(colors) < 50 {
		t.Errorf("screenshot has only %d colours: no text or drawing", len(colors))
	}
	for _, hex := range want {
		c := parseHex(t, hex)
		if colors[c] < 20 {
			t.Errorf("screenshot: colour %s on %d pixels, want a bar of it", hex, colors[c])
		}
	}
}

func parseHex(t *testing.T, hex string) color.RGBA {
	t.Helper()
	c := color.RGBA{A: 255}
	if _, err := fmt.Sscanf(hex, "#%02x%02x%02x", &c.R, &c.G, &c.B); err != nil {
		t.Fatalf("bad colour %q: %v", hex, err)
	}
	return c
}

// keepArtifact copies a file to the directory $SYCBUILD_ARTIFACTS, if set,
// as name: CI keeps what is there.
func keepArtifact(t *testing.T, file, name string) {
	t.Helper()
	dir := os.Getenv("SYCBUILD_ARTIFACTS")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("kept %s", filepath.Join(dir, name))
}
