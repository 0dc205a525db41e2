package host

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"folio/front"
	"folio/internal/ssetest"
	"folio/internal/syncbuf"
	"folio/pipeline"
	"folio/watch"
)

// The dev tests run the real thing: a host made by Load from folio dev's
// Spec on 127.0.0.1:0 over a real temporary folder, the real watcher, real
// file operations and real HTTP through the front end dev serves with.
// The test, not the clock, ends each burst of changes (settle, with the
// watcher's SyncDir): "exactly one snapshot" for a save is about
// coalescing, and a writer descheduled in the middle of a save on a busy
// machine cannot split it. Waits are bounded only so that a failure does
// not hang; nothing asserts speed.
const devWait = 30 * time.Second

// devFixture is a running folio dev over dir (config.toml, content/).
type devFixture struct {
	t    testing.TB
	dir  string
	h    *Host
	url  string // http://127.0.0.1:PORT
	logs *syncbuf.Buffer

	mu      sync.Mutex
	snaps   []*pipeline.Snapshot // every snapshot made current, in order
	changed chan struct{}        // a wake-up after each
	marks   int                  // markers written (afterSettling)
	stop    func()               // stops the server now (idempotent)

	syncDir string    // the watcher's SyncDir
	synced  chan bool // its Synced
}

// devConfig is the config of the dev fixtures.
const devConfig = "title = \"Dev\"\ncontentDir = \"content\"\n"

// newDevDir makes a site folder with config.toml and the given files
// (paths relative to the folder).
func newDevDir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "config.toml"), devConfig)
	must(t, os.MkdirAll(filepath.Join(dir, "content", "blog"), 0o755))
	for name, body := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), body)
	}
	return dir
}

// devSpec is folio dev's Spec for the site folder dir, as runDev makes it
// from its flags (--config dir/config.toml).
func devSpec(dir string) Spec {
	return Spec{ConfigFile: filepath.Join(dir, "config.toml")}.ForDev(false, nil)
}

// startDev runs folio dev on dir until the test ends; edit changes its
// Spec (an Addr set is the address to listen on: a restart on the same
// port).
func startDev(t testing.TB, dir string, edit func(s *Spec)) *devFixture {
	t.Helper()
	spec := devSpec(dir)
	if edit != nil {
		edit(&spec)
	}
	addr := "127.0.0.1:0"
	if spec.Addr != nil {
		addr = spec.Addr.String()
	}
	ln, err := net.Listen("tcp", addr)
	must(t, err)
	f := &devFixture{t: t, dir: dir, url: "http://" + ln.Addr().String(), logs: &syncbuf.Buffer{}, changed: make(chan struct{}, 1),
		syncDir: t.TempDir(), synced: make(chan bool)}
	log := slog.New(slog.NewTextHandler(f.logs, nil))
	spec.Addr, spec.Log, spec.Started, spec.Swapped = ln.Addr(), log, time.Now(), f.record
	spec.WatchOptions = watch.Options{Logger: log, SyncDir: f.syncDir, Synced: f.synced}
	if f.h, err = Load(spec); err != nil {
		ln.Close()
		t.Fatal(err)
	}
	f.record(f.h.Snapshot())
	loopCtx, stopLoop := context.WithCancel(context.Background())
	loopDone := make(chan struct{})
	go func() { defer close(loopDone); f.h.Run(loopCtx, nil) }()
	// As runDev serves: the loopback redirect in front of the server.
	hs := &http.Server{Handler: front.LoopbackRedirect(f.h.Server(), func() string { return f.h.Snapshot().Config().BaseURL })}
	go hs.Serve(ln)
	var once sync.Once
	f.stop = func() {
		once.Do(func() {
			// As runDev stops: streams end first, then a graceful shutdown.
			f.h.Server().CloseEvents()
			ctx, cancel := context.WithTimeout(context.Background(), devWait)
			defer cancel()
			if hs.Shutdown(ctx) != nil {
				hs.Close()
			}
			stopLoop()
			<-loopDone
		})
	}
	t.Cleanup(func() {
		f.stop()
		if t.Failed() {
			t.Logf("folio dev log:\n%s", f.logs.String())
		}
	})
	return f
}

func (f *devFixture) record(s *pipeline.Snapshot) {
	f.mu.Lock()
	f.snaps = append(f.snaps, s)
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// count is the number of snapshots made current so far.
func (f *devFixture) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.snaps)
}

// since returns the snapshots made current after the first n.
func (f *devFixture) since(n int) []*pipeline.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.snaps[n:])
}

// settle ends the watcher's burst of changes: every change made so far
// is delivered to the host, which applies it (in order, after what it
// was given before). It reports whether there was anything to deliver.
func (f *devFixture) settle() bool {
	f.t.Helper()
	f.mu.Lock()
	f.marks++
	name := filepath.Join(f.syncDir, fmt.Sprint("s", f.marks))
	f.mu.Unlock()
	must(f.t, os.WriteFile(name, nil, 0o644))
	select {
	case waiting := <-f.synced:
		return waiting
	case <-time.After(devWait):
		f.t.Fatalf("the watcher did not see %s within %v", name, devWait)
	}
	return false
}

// waitSnap ends the burst of changes made so far (settle), then waits
// until the served snapshot satisfies ok and returns it.
func (f *devFixture) waitSnap(what string, ok func(*pipeline.Snapshot) bool) *pipeline.Snapshot {
	f.t.Helper()
	f.settle()
	deadline := time.After(devWait)
	for {
		if s := f.h.Snapshot(); ok(s) {
			return s
		}
		select {
		case <-f.changed:
		case <-time.After(20 * time.Millisecond): // the schedule moves without record
		case <-deadline:
			f.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// path is a file of the fixture.
func (f *devFixture) path(name string) string { return filepath.Join(f.dir, filepath.FromSlash(name)) }

// write saves a file of the fixture as most editors do: written beside it
// under a name the watcher ignores, then renamed over it, so that the
// save is one event (a write in place is two, a truncation and a write,
// which a descheduled writer can split into two bursts).
func (f *devFixture) write(name, body string) { writeFile(f.t, f.path(name), body) }

// get fetches a path of the dev server.
func (f *devFixture) get(path string) (*http.Response, string) {
	f.t.Helper()
	resp, err := http.Get(f.url + path)
	must(f.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	must(f.t, err)
	return resp, string(b)
}

// writeFile writes name in one rename (see devFixture.write).
func writeFile(t testing.TB, name, body string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(name), 0o755))
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".swp")
	must(t, os.WriteFile(tmp, []byte(body), 0o644))
	must(t, os.Rename(tmp, name))
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// post is a valid post file.
func post(title, date string, tags ...string) string {
	return fmt.Sprintf("---\ntitle: %q\ndate: %s\ntags: [%s]\n---\nBody of %s.\n", title, date, strings.Join(tags, ", "), title)
}

// titleOf is the title of the visible post with slug, "" when none.
func titleOf(s *pipeline.Snapshot, slug string) string {
	if p := s.Post(slug); p != nil {
		return p.Title
	}
	return ""
}

// sseEvent is one Server-Sent Event as a browser dispatches it.
type sseEvent = ssetest.Event

// sseClient reads /_folio/events of a dev server.
type sseClient struct {
	events chan sseEvent
	done   chan struct{}
	settle func() bool // the fixture's: next ends the burst of changes first
}

func (f *devFixture) openEvents(query string) *sseClient {
	f.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", f.url+"/_folio/events"+query, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		f.t.Fatal(err)
	}
	c := &sseClient{events: make(chan sseEvent, 1000), done: make(chan struct{}), settle: f.settle}
	go func() {
		defer close(c.done)
		defer resp.Body.Close()
		ssetest.Read(resp.Body, c.events)
	}()
	f.t.Cleanup(func() { cancel(); <-c.done })
	return c
}

// next ends the burst of the changes made so far (devFixture.settle),
// then waits for the next event.
func (c *sseClient) next(t testing.TB) sseEvent {
	t.Helper()
	select {
	case ev := <-c.events:
		return ev
	default:
	}
	c.settle()
	select {
	case ev := <-c.events:
		return ev
	case <-c.done:
		t.Fatal("the event stream ended")
	case <-time.After(devWait):
		t.Fatal("no event")
	}
	return sseEvent{}
}

// writeTree writes files (slash paths → contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), body)
	}
}

// loadUnrun loads a host that the test drives itself, applying changes
// without Run, on an address that is not listened on.
func loadUnrun(t testing.TB, spec Spec) *Host {
	t.Helper()
	spec.Addr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	h, err := Load(spec)
	must(t, err)
	t.Cleanup(h.Close)
	return h
}
