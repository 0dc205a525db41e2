package integration

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"folio/internal/nginxtest"
	"folio/internal/proctest"
)

// TestSIGTERMDrainsSlowRequests starts downloads of a large bundle file
// over connections with a small receive window, and reads nothing of
// their bodies until folio has logged its shutdown, so each request is
// still being answered when SIGTERM arrives (16 MiB outlast the kernel's
// buffers by far). Then each is read as fast as it comes, which takes a
// fraction of the 10 s drain even on a starved machine (a download paced
// at 20 MB/s took longer than the drain under a load of 17). Every
// download must complete intact and folio must then exit 0.
func TestSIGTERMDrainsSlowRequests(t *testing.T) {
	big := make([]byte, 16<<20)
	rand.Read(big)
	s := newSite(t, "", map[string]string{
		"blog/big/index.md": post("Big", "2026-01-02T15:04:05Z"),
		"blog/big/data.bin": string(big),
	})
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	addr := p.Addr()

	const clients = 4
	headers := make(chan struct{}, clients)
	results := make(chan error, clients)
	read := make(chan struct{}) // closed once the shutdown has begun
	for range clients {
		go func() { results <- slowDownload(addr, "/blog/big/data.bin", sha256.Sum256(big), headers, read) }()
	}
	for range clients {
		select {
		case <-headers:
		case err := <-results:
			t.Fatalf("a download ended before SIGTERM: %v", err)
		case <-time.After(60 * time.Second):
			t.Fatal("downloads did not start")
		}
	}
	p.Signal(t, syscall.SIGTERM)
	p.Log.Wait(t, regexp.MustCompile(`shutting down`), 30*time.Second)
	close(read)

	// The listener closes at once: new connections are refused while the
	// downloads drain.
	refused := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			refused = true
			break
		}
		c.Close()
	}
	if !refused {
		t.Error("new connections are still accepted after SIGTERM")
	}
	for range clients {
		if err := <-results; err != nil {
			t.Errorf("download cut by shutdown: %v", err)
		}
	}
	if code := p.Wait(t, 60*time.Second); code != 0 {
		t.Errorf("exit status %d after SIGTERM, want 0", code)
	}
	done := regexp.MustCompile(`msg=request method=GET path=/blog/big/data.bin status=200 bytes=16777216 duration=\S+ remote=127\.0\.0\.1:\d+`)
	if n := p.Log.Count(done); n != clients {
		t.Errorf("%d access log lines for complete downloads, want %d", n, clients)
	}
}

// slowDownload fetches path over a connection whose receive buffer is
// 16 KiB: it signals started once the response headers are in, reads
// nothing more until read is closed, then reads the body and checks it.
func slowDownload(addr, path string, want [sha256.Size]byte, started chan<- struct{}, read <-chan struct{}) error {
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) {
			syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10)
		})
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, addr)
	br := bufio.NewReaderSize(conn, 32<<10)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	started <- struct{}{}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	<-read
	h := sha256.New()
	buf := make([]byte, 32<<10)
	var n int64
	for {
		k, err := resp.Body.Read(buf)
		h.Write(buf[:k])
		n += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("after %d bytes: %w", n, err)
		}
	}
	if !bytes.Equal(h.Sum(nil), want[:]) {
		return fmt.Errorf("body of %d bytes differs from the file", n)
	}
	return nil
}

func TestSIGINTExitsZero(t *testing.T) {
	s := newSite(t, "", map[string]string{"blog/a.md": post("A", "2026-01-02T15:04:05Z")})
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	p.Signal(t, syscall.SIGINT)
	if code := p.Wait(t, 60*time.Second); code != 0 {
		t.Errorf("exit status %d after SIGINT, want 0", code)
	}
}

// TestSIGHUP reloads a broken config (the old snapshot stays, the error is
// logged), then a good one with changed content: a new post appears, a
// post that broke keeps its last good version.
func TestSIGHUP(t *testing.T) {
	s := newSite(t, "", map[string]string{
		"blog/a.md": post("A", "2026-01-02T15:04:05Z"),
		"blog/b.md": post("B", "2026-01-03T15:04:05Z"),
	})
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	if got := titles(t, p.URL); got != "B,A" {
		t.Fatalf("posts %s, want B,A", got)
	}

	// (A key nobody knows is a warning at the top level, as Hugo takes
	// it; under [folio] it is an error.)
	os.WriteFile(s.Config, []byte("baseURL = \"https://example.org/\"\n[folio]\nnosuchkey = 1\n"), 0o644)
	p.Signal(t, syscall.SIGHUP)
	p.Log.Wait(t, regexp.MustCompile(`level=ERROR msg="reload failed; still serving the previous snapshot" err=.*unknown key folio.nosuchkey`), 10*time.Second)
	if got := titles(t, p.URL); got != "B,A" {
		t.Errorf("after a broken config: posts %s, want the old B,A", got)
	}
	if got := get(t, p.URL+"/llms.txt"); !strings.HasPrefix(got, "# Test blog\n") {
		t.Errorf("after a broken config llms.txt starts %.40q, want the old title", got)
	}

	s.writeConfig(t, "Renamed", "")
	s.write(t, "blog/c.md", post("C", "2026-01-04T15:04:05Z"))
	s.write(t, "blog/a.md", "---\ntitle: [unclosed\n---\nbroken\n")
	p.Signal(t, syscall.SIGHUP)
	p.Log.Wait(t, regexp.MustCompile(`msg=reloaded posts=3 problems=1`), 10*time.Second)
	p.Log.Wait(t, regexp.MustCompile(`level=WARN msg=problem path=\S+/content/blog/a\.md line=\d+`), time.Second)
	if got := titles(t, p.URL); got != "C,B,A" {
		t.Errorf("after a good reload: posts %s, want C,B,A (A at its last good version)", got)
	}
	if got := get(t, p.URL+"/llms.txt"); !strings.HasPrefix(got, "# Renamed\n") {
		t.Errorf("after a good reload llms.txt starts %.40q, want the new title", got)
	}
}

// TestWatch edits, breaks and adds posts under serve --watch.
func TestWatch(t *testing.T) {
	s := newSite(t, "", map[string]string{
		"blog/a.md": post("A", "2026-01-02T15:04:05Z"),
	})
	p := start(t, nil, "serve", "--watch", "--config", s.Config, "--addr", "127.0.0.1:0")
	s.write(t, "blog/a.md", post("A2", "2026-01-02T15:04:05Z"))
	eventually(t, func() bool { return titles(t, p.URL) == "A2" }, "edited title")
	s.write(t, "blog/a.md", "---\ntitle: [unclosed\n---\n")
	p.Log.Wait(t, regexp.MustCompile(`msg=problem path=\S+/blog/a\.md`), 10*time.Second)
	if got := titles(t, p.URL); got != "A2" {
		t.Errorf("after breaking a.md: posts %s, want its last good version A2", got)
	}
	s.write(t, "blog/b.md", post("B", "2026-01-03T15:04:05Z"))
	eventually(t, func() bool { return titles(t, p.URL) == "B,A2" }, "new post")
}

// TestPORT: serve listens on $PORT when --addr is not given, and says so.
func TestPORT(t *testing.T) {
	s := newSite(t, "", map[string]string{"blog/a.md": post("A", "2026-01-02T15:04:05Z")})
	port := nginxtest.FreePort(t)
	p := start(t, []string{fmt.Sprintf("PORT=%d", port)}, "serve", "--config", s.Config)
	if want := fmt.Sprintf("http://localhost:%d", port); p.URL != want {
		t.Errorf("serving %s, want %s", p.URL, want)
	}
	m := p.Log.Wait(t, proctest.StartLine, time.Second)
	if m[2] != "1" {
		t.Errorf("start-up line counts %s posts, want 1", m[2])
	}
	get(t, p.URL+"/healthz")
	p.Log.Wait(t, regexp.MustCompile(`level=INFO msg=request method=GET path=/healthz status=200 bytes=2 duration=\S+ remote=127\.0\.0\.1:\d+`), 5*time.Second)
}

func TestVersion(t *testing.T) {
	out, err := exec.Command(folio, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "folio ") || !strings.Contains(string(out), "go1.") {
		t.Errorf("folio --version: %q, %v", out, err)
	}
}

// titles lists the titles of /api/posts.json, comma-separated.
func titles(t *testing.T, base string) string {
	t.Helper()
	var body struct{ Items []struct{ Title string } }
	if err := json.Unmarshal([]byte(get(t, base+"/api/posts.json")), &body); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range body.Items {
		out = append(out, it.Title)
	}
	return strings.Join(out, ",")
}

func get(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}

// eventually polls cond for up to 60 s: the watcher's delay is not part of
// what these tests assert.
func eventually(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not seen within 60s", what)
}

// TestSIGTERMLogOrder: the access lines of requests answered before
// SIGTERM come before "shutting down" in the log, though access lines are
// buffered (flushed every 100 ms): the log reads in the order things
// happened.
func TestSIGTERMLogOrder(t *testing.T) {
	s := newSite(t, "", map[string]string{"blog/a.md": post("A", "2026-01-02T15:04:05Z")})
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	resp, err := http.Get(p.URL + "/api/posts.json?order-test")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	p.Signal(t, syscall.SIGTERM) // well within the 100 ms flush interval
	p.Log.Wait(t, regexp.MustCompile(`shutting down`), 5*time.Second)
	log := p.Log.String()
	request := strings.Index(log, "path=/api/posts.json")
	shutdown := strings.Index(log, "shutting down")
	if request < 0 || request > shutdown {
		t.Errorf("the request's access line (at %d) is not before \"shutting down\" (at %d):\n%s", request, shutdown, log)
	}
}

// TestSIGHUPKeepsLastModified: a post's body edited without lastmod and
// reloaded by SIGHUP is newer than the copy a client holds, so its
// revalidation with the old Last-Modified answers 200 with the new bytes,
// as under --watch. (SIGHUP once made a new server, which forgot what it
// had sent, and answered 304: the client kept the stale bytes.)
func TestSIGHUPKeepsLastModified(t *testing.T) {
	s := newSite(t, "", map[string]string{"blog/a.md": post("A", "2026-01-02T15:04:05Z")})
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	before := fetch(t, p.URL+"/blog/a.md", "")
	lm := before.Header.Get("Last-Modified")
	if before.StatusCode != 200 || lm == "" {
		t.Fatalf("before: %d, Last-Modified %q", before.StatusCode, lm)
	}
	if again := fetch(t, p.URL+"/blog/a.md", lm); again.StatusCode != http.StatusNotModified {
		t.Fatalf("unchanged, If-Modified-Since %s: %d, want 304", lm, again.StatusCode)
	}
	s.write(t, "blog/a.md", post("A", "2026-01-02T15:04:05Z")+"A new paragraph.\n")
	p.Signal(t, syscall.SIGHUP)
	p.Log.Wait(t, regexp.MustCompile(`msg=reloaded posts=1`), 10*time.Second)
	after := fetch(t, p.URL+"/blog/a.md", lm)
	if after.StatusCode != 200 || !strings.Contains(after.body, "A new paragraph.") {
		t.Errorf("edited, SIGHUP, If-Modified-Since %s: %d (Last-Modified %s), want 200 and the new body", lm, after.StatusCode, after.Header.Get("Last-Modified"))
	}
}

// answer is a response with its body read.
type answer struct {
	*http.Response
	body string
}

// fetch GETs url, with If-Modified-Since when ims is set.
func fetch(t *testing.T, url, ims string) answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if ims != "" {
		req.Header.Set("If-Modified-Since", ims)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp, string(b)}
}
