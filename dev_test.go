package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"folio/front"
	"folio/internal/syncbuf"
)

// TestDevStartLine runs the command as main does: the start line names the
// bound port, and cancelling (SIGTERM) ends it with status 0 even with a
// browser connected: the live-reload stream is closed, not cut when the
// drain times out.
func TestDevStartLine(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"config.toml":       "title = \"Dev\"\ncontentDir = \"content\"\n",
		"content/blog/x.md": "---\ntitle: X\ndate: 2026-01-01T00:00:00Z\n---\nx\n",
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr, log syncbuf.Buffer
	done := make(chan error, 1)
	o := &options{command: "dev", config: filepath.Join(dir, "config.toml"), addr: "127.0.0.1:0"}
	go func() {
		done <- runDev(ctx, o, stdio{out: io.Discard, err: &stderr, log: slog.New(slog.NewTextHandler(&log, nil))})
	}()
	line := regexp.MustCompile(`^folio: serving (http://127\.0\.0\.1:[1-9][0-9]*/) \(1 post, built in [0-9.]+[µm]?s\)\n`)
	var m []string
	for deadline := time.Now().Add(60 * time.Second); m == nil; time.Sleep(10 * time.Millisecond) {
		if m = line.FindStringSubmatch(stderr.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("start line: %q", stderr.String())
		}
	}
	resp, err := http.Get(m[1] + "_folio/live.js")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" || !strings.Contains(string(body), "EventSource") {
		t.Fatalf("live.js: %d %v", resp.StatusCode, resp.Header)
	}
	events, err := http.Get(m[1] + "_folio/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	if _, err := bufio.NewReader(events.Body).ReadString('\n'); err != nil { // connected
		t.Fatal(err)
	}
	cancel()
	select {
	case err := <-done:
		if code := exitStatus(err, os.Stderr); code != 0 {
			t.Errorf("exit %d (%v)", code, err)
		}
	case <-time.After(front.DrainTimeout + 30*time.Second):
		t.Fatal("folio dev did not stop")
	}
	if strings.Contains(log.String(), "were cut") {
		t.Errorf("the live-reload stream held the shutdown until the drain timeout:\n%s", log.String())
	}
}
