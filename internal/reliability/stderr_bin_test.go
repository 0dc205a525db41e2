package reliability

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"folio/internal/proctest"
)

// TestStalledStderrDoesNotStopServing (issue 15, finding 13): folio serve
// whose stderr is a pipe nobody reads keeps answering: 3,000 requests and
// /healthz, where it stopped after some 700 short ones (the access log's
// writes filled the pipe, then held every request). Its log lines are dropped and
// counted meanwhile; once stderr is read again, a warning says how many.
func TestStalledStderrDoesNotStopServing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the folio binary")
	}
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "content"), unlinked(publicOnly()))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(folioBin(t), "serve", "--addr", "127.0.0.1:0", "--content", "content", "--base-url", base)
	cmd.Dir, cmd.Stderr = dir, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// Read up to the start line, then stop reading.
	br := bufio.NewReader(r)
	var url string
	for url == "" {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("no start line: %v", err)
		}
		if m := proctest.StartLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			url = m[1]
		}
	}
	client := &http.Client{Timeout: 30 * time.Second} // a hang, not a speed
	get := func(path string) int {                    // 0: no answer (t.Errorf, not Fatalf: it runs on goroutines)
		resp, err := client.Get(url + path)
		if err != nil {
			t.Errorf("GET %.60s: %v (the server stopped answering)", path, err)
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	const n = 3000
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < n; i += 4 {
				// Long unknown paths make long access lines: 3,000 of them are
				// some 4 MB, past the pipe (64 KiB) and folio's log buffer.
				path := []string{"/blog/hello/", "/api/posts.json", "/nope-" + fmt.Sprint(i) + "-" + strings.Repeat("x", 1500), "/rss.xml"}[i%4]
				s := get(path)
				if s == 0 {
					return
				}
				mu.Lock()
				statuses[s]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if s := get("/healthz"); s != 200 {
		t.Errorf("/healthz after %d requests with stderr stalled: %d", n, s)
	}
	// Read stderr again: what was held comes, then the warning.
	var out strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64<<10)
		for {
			k, err := br.Read(buf)
			mu.Lock()
			out.Write(buf[:k])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	text := func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(text(), "log lines dropped"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no warning of dropped lines once stderr was read again; it said:\n%.2000s", text())
		}
		if get("/healthz") == 0 {
			return
		}
	}
	t.Logf("%d requests answered with stderr stalled (%v), then: %s", n+1, statuses, lastWarning(text()))
}

func lastWarning(s string) string {
	i := strings.LastIndex(s, "level=WARN msg=\"log lines dropped")
	if i < 0 {
		return ""
	}
	line, _, _ := strings.Cut(s[i:], "\n")
	return line
}
