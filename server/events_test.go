package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/internal/ssetest"
	"folio/pipeline"
)

// sseEvent is one Server-Sent Event as a browser would dispatch it.
type sseEvent = ssetest.Event

// sseStream reads the events of one /_folio/events connection.
type sseStream struct {
	events chan sseEvent
	cancel context.CancelFunc
	done   chan struct{} // closed when the stream ended
}

// openEvents connects to the live-reload stream; query is appended to the
// URL ("?since=…" or "").
func openEvents(t *testing.T, ts *httptest.Server, query string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/_folio/events"+query, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		cancel()
		t.Fatalf("events: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &sseStream{events: make(chan sseEvent, 1000), cancel: cancel, done: make(chan struct{})}
	go s.read(resp)
	t.Cleanup(func() { cancel(); <-s.done })
	return s
}

// read parses the stream as the EventSource algorithm does.
func (s *sseStream) read(resp *http.Response) {
	defer close(s.done)
	defer resp.Body.Close()
	ssetest.Read(resp.Body, s.events)
}

// next waits for the next event; the deadline only keeps a broken stream
// from hanging the test.
func (s *sseStream) next(t *testing.T) sseEvent {
	t.Helper()
	select {
	case ev := <-s.events:
		return ev
	case <-s.done:
		t.Fatal("the stream ended")
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30s")
	}
	return sseEvent{}
}

// liveSite is a small site without problems.
func liveSite() fstest.MapFS { return generatedSite(4) }

func brokenSite() fstest.MapFS {
	fsys := liveSite()
	fsys["blog/broken.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Broken\ndate: not a date\n---\nx\n")}
	return fsys
}

func devSite(t *testing.T, fsys fstest.MapFS) (*Server, *httptest.Server) {
	t.Helper()
	s := newServer(t, build(t, fsys, pipeline.Options{Root: "content"}), true)
	ts := httptest.NewServer(s)
	t.Cleanup(func() { s.CloseEvents(); ts.Close() })
	return s, ts
}

func wantEvent(t *testing.T, ev sseEvent, event string) {
	t.Helper()
	if ev.Event != event {
		t.Fatalf("got event %q (%q), want %q", ev.Event, ev.Data, event)
	}
}

func wantReload(t *testing.T, ev sseEvent, snap *pipeline.Snapshot) {
	t.Helper()
	wantEvent(t, ev, "reload")
	if ev.Data != strconv.FormatUint(snap.ID(), 10) {
		t.Fatalf("reload data %q, want snapshot id %d", ev.Data, snap.ID())
	}
}

func TestLiveEventsFollowSnapshots(t *testing.T) {
	s, ts := devSite(t, liveSite())
	stream := openEvents(t, ts, "")

	next := build(t, liveSite(), pipeline.Options{Root: "content"})
	s.Swap(next)
	ev := stream.next(t)
	wantReload(t, ev, next)
	if ev.ID != liveVersion(s.current.Load()) {
		t.Errorf("reload id %q, want the state's version", ev.ID)
	}

	broken := build(t, brokenSite(), pipeline.Options{Root: "content"})
	s.Swap(broken)
	ev = stream.next(t)
	wantEvent(t, ev, "problems")
	var problems []pipeline.Problem
	if err := json.Unmarshal([]byte(ev.Data), &problems); err != nil {
		t.Fatalf("problems data %q: %v", ev.Data, err)
	}
	if len(problems) != 1 || problems[0].Path != "content/blog/broken.md" || problems[0].Line != 3 {
		t.Fatalf("problems = %+v, want content/blog/broken.md line 3", problems)
	}
	problemsID := ev.ID
	ev = stream.next(t)
	wantReload(t, ev, broken)
	if ev.ID != problemsID {
		t.Errorf("problems and reload of one snapshot have ids %q and %q", problemsID, ev.ID)
	}

	fixed := build(t, liveSite(), pipeline.Options{Root: "content"})
	s.Swap(fixed)
	ev = stream.next(t)
	wantEvent(t, ev, "clear")
	if ev.Data != "" {
		t.Errorf("clear data %q, want empty", ev.Data)
	}
	wantReload(t, stream.next(t), fixed)
}

func TestLiveEventsOnConnect(t *testing.T) {
	s, ts := devSite(t, brokenSite())
	version := liveVersion(s.current.Load())

	t.Run("current page: the problems only", func(t *testing.T) {
		stream := openEvents(t, ts, "?since="+version)
		ev := stream.next(t)
		wantEvent(t, ev, "problems")
		if !strings.Contains(ev.Data, "content/blog/broken.md") || ev.ID != version {
			t.Errorf("got %+v", ev)
		}
		// Nothing else was queued: the next event is the next change.
		s.ReportProblems(nil) // same problems: no event
		s.ReportProblems([]pipeline.Problem{{Path: "config.toml", Line: 2, Message: "bad"}})
		ev = stream.next(t)
		wantEvent(t, ev, "problems")
		if !strings.HasPrefix(ev.Data, `[{"path":"config.toml","line":2,"message":"bad"},`) {
			t.Errorf("extra problems come first: %s", ev.Data)
		}
		s.ReportProblems(nil)
		wantEvent(t, stream.next(t), "problems") // back to the content's
	})
	t.Run("unknown page: the problems", func(t *testing.T) {
		wantEvent(t, openEvents(t, ts, "").next(t), "problems")
	})
	t.Run("stale page: reload at once", func(t *testing.T) {
		for _, since := range []string{"x-1-1", strings.Replace(version, bootID, "other", 1)} {
			ev := openEvents(t, ts, "?since="+since).next(t)
			wantReload(t, ev, s.Snapshot())
		}
	})
}

func TestLiveEventsExtraProblemsWithoutSnapshot(t *testing.T) {
	s, ts := devSite(t, liveSite())
	stream := openEvents(t, ts, "")
	s.ReportProblems([]pipeline.Problem{{Path: "site/templates/base.html", Line: 7, Message: `function "nope" not defined`}})
	ev := stream.next(t)
	wantEvent(t, ev, "problems")
	if ev.ID != liveVersion(s.current.Load()) {
		t.Errorf("problems id %q is not the current version", ev.ID)
	}
	s.ReportProblems(nil)
	wantEvent(t, stream.next(t), "clear")
	// A theme change is a new version without a new snapshot: reload.
	if err := s.SetSite(testSite(), nil); err != nil {
		t.Fatal(err)
	}
	wantReload(t, stream.next(t), s.Snapshot())
}

func TestLiveEventsSlowClientGetsLatest(t *testing.T) {
	s, ts := devSite(t, liveSite())
	stream := openEvents(t, ts, "")
	var last *pipeline.Snapshot
	for range 200 {
		last = build(t, liveSite(), pipeline.Options{Root: "content"})
		s.Swap(last)
	}
	// Reloads arrive in order and end with the newest snapshot; states in
	// between may be skipped, never repeated.
	prev := uint64(0)
	for {
		ev := stream.next(t)
		wantEvent(t, ev, "reload")
		id, _ := strconv.ParseUint(ev.Data, 10, 64)
		if id <= prev {
			t.Fatalf("reload %d after %d", id, prev)
		}
		prev = id
		if id == last.ID() {
			break
		}
	}
}

func TestLiveBrokerNeverBlocks(t *testing.T) {
	b := newBroker()
	c, ok := b.subscribe() // a client that never reads
	if !ok {
		t.Fatal("subscribe on a new broker failed")
	}
	for range 1000 {
		b.publish(nil)
	}
	if len(c) != 1 {
		t.Errorf("pending wake-ups = %d, want 1", len(c))
	}
	b.unsubscribe(c)
	b.close()
	b.close() // twice is fine
	if _, ok := b.subscribe(); ok {
		t.Error("subscribe after close succeeded")
	}
}

func TestLiveClientsAreDropped(t *testing.T) {
	s, ts := devSite(t, liveSite())
	streams := make([]*sseStream, 5)
	for i := range streams {
		streams[i] = openEvents(t, ts, "?since="+liveVersion(s.current.Load()))
	}
	s.Swap(build(t, liveSite(), pipeline.Options{Root: "content"}))
	for _, st := range streams {
		wantEvent(t, st.next(t), "reload")
	}
	if n := s.events.count(); n != 5 {
		t.Fatalf("%d clients, want 5", n)
	}
	for _, st := range streams[:3] {
		st.cancel()
		<-st.done
	}
	waitFor(t, "disconnected clients dropped", func() bool { return s.events.count() == 2 })

	s.CloseEvents()
	for _, st := range streams[3:] {
		<-st.done // the server ended the stream
	}
	waitFor(t, "closed streams dropped", func() bool { return s.events.count() == 0 })
	resp, _ := get(t, ts, "GET", "/_folio/events")
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("events after CloseEvents: %d, want 503", resp.StatusCode)
	}
}

func TestLiveKeepAlive(t *testing.T) {
	old := liveKeepAlive
	liveKeepAlive = time.Millisecond
	t.Cleanup(func() { liveKeepAlive = old })
	_, ts := devSite(t, liveSite())
	resp, err := http.Get(ts.URL + "/_folio/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, ": keep-alive") {
			return
		}
	}
}

func TestLiveOnlyInDev(t *testing.T) {
	_, prod := startSite(t, liveSite())
	_, dev := devSite(t, liveSite())
	for _, path := range []string{"/_folio/events", "/_folio/live.js"} {
		if resp, _ := get(t, prod, "GET", path); resp.StatusCode != 404 {
			t.Errorf("serve %s: %d, want 404", path, resp.StatusCode)
		}
	}
	resp, body := get(t, dev, "GET", "/_folio/live.js")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" ||
		resp.Header.Get("Cache-Control") != "no-cache" || !strings.Contains(string(body), "EventSource") {
		t.Errorf("dev live.js: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = get(t, dev, "HEAD", "/_folio/events")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("HEAD events: %d %v", resp.StatusCode, resp.Header)
	}
	for _, path := range []string{"/", "/blog/", "/blog/post-00001/", "/nope/"} {
		_, page := get(t, prod, "GET", path)
		if strings.Contains(string(page), "_folio") || strings.Contains(string(page), "folio-live") {
			t.Errorf("serve %s carries live reload", path)
		}
		_, page = get(t, dev, "GET", path)
		if n := strings.Count(string(page), "_folio/live.js"); n != 1 {
			t.Errorf("dev %s links live.js %d times, want 1", path, n)
		}
		if n := strings.Count(string(page), `<meta name="folio-live" content="`); n != 1 {
			t.Errorf("dev %s has %d folio-live metas, want 1", path, n)
		}
	}
}

func TestLiveInject(t *testing.T) {
	const v = "boot-1-2"
	meta := `<meta name="folio-live" content="boot-1-2">`
	script := `<script src="/_folio/live.js" defer></script>`
	for _, tc := range []struct{ name, in, want string }{
		{"linked by the theme", `<html><head><script src="http://x/_folio/live.js" defer></script></head><body>b</body>`,
			`<html><head><script src="http://x/_folio/live.js" defer></script>` + meta + `</head><body>b</body>`},
		{"not linked", `<head><title>t</title></head><body></body>`, `<head><title>t</title>` + meta + script + `</head><body></body>`},
		{"upper case", `<HEAD></HEAD><BODY>`, `<HEAD>` + meta + script + `</HEAD><BODY>`},
		{"no head", `<title>t</title><body class="x">b`, `<title>t</title><body class="x">` + meta + script + `b`},
		{"neither", `hello`, `hello` + meta + script},
		{"non-ASCII before the head", "<title>İİİ</title></head>", "<title>İİİ</title>" + meta + script + "</head>"},
	} {
		if got := string(liveInject([]byte(tc.in), v)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// waitFor polls cond; the deadline only keeps a failure from hanging.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLiveRenderProblems: a link to a post that is not published is found
// when its page renders; folio dev then shows it in the overlay like any
// other problem, and a fix clears it.
func TestLiveRenderProblems(t *testing.T) {
	site := liveSite()
	site["blog/linker.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Linker\ndate: 2019-01-01\n---\nSee [the draft](secret.md).\n")}
	site["blog/secret.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Secret\ndate: 2019-01-01\ndraft: true\n---\nSoon.\n")}
	s, ts := devSite(t, site)
	stream := openEvents(t, ts, "?since="+liveVersion(s.current.Load()))
	if resp, _ := get(t, ts, "GET", "/blog/linker/"); resp.StatusCode != 200 {
		t.Fatalf("linker: %d", resp.StatusCode)
	}
	ev := stream.next(t)
	wantEvent(t, ev, "problems")
	if !strings.Contains(ev.Data, `"path":"content/blog/linker.md","line":5,"message":"link to \"secret.md\": the post is not published"`) {
		t.Errorf("problems: %s", ev.Data)
	}

	delete(site, "blog/linker.md")
	fixed := build(t, site, pipeline.Options{Root: "content"})
	s.Swap(fixed)
	wantEvent(t, stream.next(t), "clear")
	wantReload(t, stream.next(t), fixed)
}

// TestLiveReloadRendersNothing: the events a change sends need nothing
// rendered, so the state they describe has no render context yet (an
// index of every page of the site, the largest part of a change at
// 10,000 posts); the first page asked for makes it.
func TestLiveReloadRendersNothing(t *testing.T) {
	s, ts := devSite(t, liveSite())
	stream := openEvents(t, ts, "")
	next := build(t, liveSite(), pipeline.Options{Root: "content"})
	s.Swap(next)
	wantReload(t, stream.next(t), next)
	st := s.current.Load()
	if hasValue(st, rendersKey) {
		t.Fatal("the reload event made the new state's render context")
	}
	if resp, _ := get(t, ts, "GET", "/blog/"+next.Posts()[0].Slug+"/"); resp.StatusCode != 200 {
		t.Fatalf("article: %d", resp.StatusCode)
	}
	if !hasValue(st, rendersKey) {
		t.Fatal("rendering a page did not make the render context")
	}
}
