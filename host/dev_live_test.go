package host

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"folio/pipeline"
)

// wantReloadOf checks that ev is a reload of snapshot s.
func wantReloadOf(t *testing.T, ev sseEvent, s *pipeline.Snapshot) {
	t.Helper()
	if ev.Event != "reload" || ev.Data != strconv.FormatUint(s.ID(), 10) {
		t.Fatalf("got %s %q, want reload %d", ev.Event, ev.Data, s.ID())
	}
}

func wantEventNamed(t *testing.T, ev sseEvent, name string) {
	t.Helper()
	if ev.Event != name {
		t.Fatalf("got event %s %q, want %s", ev.Event, ev.Data, name)
	}
}

// TestDevLiveEvents drives the live-reload stream with real file writes:
// one write, one reload; a broken file, the problems at its file and
// line; the fix, clear.
func TestDevLiveEvents(t *testing.T) {
	f := startDev(t, newDevDir(t, map[string]string{
		"content/blog/x.md": post("One", "2026-01-01T00:00:00Z"),
	}), nil)
	events := f.openEvents("")
	// The stream is live once a change reaches it; make sure of that
	// before counting.
	f.write("content/blog/x.md", post("Two", "2026-01-01T00:00:00Z"))
	s := f.waitSnap("Two", func(s *pipeline.Snapshot) bool { return titleOf(s, "x") == "Two" })
	wantReloadOf(t, events.next(t), s)

	t.Run("one write, one reload", func(t *testing.T) {
		before := f.count()
		f.write("content/blog/x.md", post("Three", "2026-01-01T00:00:00Z"))
		s := f.waitSnap("Three", func(s *pipeline.Snapshot) bool { return titleOf(s, "x") == "Three" })
		wantReloadOf(t, events.next(t), s)
		got := f.afterSettling(before)
		if len(got) != 1 {
			t.Fatalf("%d snapshots: %s", len(got), describe(got))
		}
		// The marker's reload is the very next event: nothing in between.
		wantReloadOf(t, events.next(t), f.h.Snapshot())
	})

	t.Run("broken file: problems at its line", func(t *testing.T) {
		f.write("content/blog/x.md", "---\ntitle: Broken\ndate: someday\n---\nBody.\n")
		ev := events.next(t)
		wantEventNamed(t, ev, "problems")
		var problems []pipeline.Problem
		must(t, json.Unmarshal([]byte(ev.Data), &problems))
		if len(problems) != 1 || problems[0].Path != f.path("content/blog/x.md") || problems[0].Line != 3 ||
			!strings.Contains(problems[0].Message, "someday") {
			t.Fatalf("problems %+v, want %s line 3 about the date", problems, f.path("content/blog/x.md"))
		}
		reload := events.next(t)
		wantEventNamed(t, reload, "reload")
		if reload.ID != ev.ID {
			t.Errorf("the reload of the broken snapshot has id %q, its problems %q", reload.ID, ev.ID)
		}
		// The last good version is still served.
		if _, body := f.get("/blog/x/"); !strings.Contains(body, "Three") {
			t.Error("the broken post's last good version is not served")
		}
	})

	t.Run("fixed: clear", func(t *testing.T) {
		f.write("content/blog/x.md", post("Four", "2026-01-01T00:00:00Z"))
		ev := events.next(t)
		wantEventNamed(t, ev, "clear")
		if ev.Data != "" {
			t.Errorf("clear data %q", ev.Data)
		}
		s := f.waitSnap("Four", func(s *pipeline.Snapshot) bool { return titleOf(s, "x") == "Four" })
		wantReloadOf(t, events.next(t), s)
	})

	t.Run("connect while broken: the problems at once", func(t *testing.T) {
		f.write("content/blog/x.md", "---\ntitle: [unclosed\n---\n")
		wantEventNamed(t, events.next(t), "problems")
		wantEventNamed(t, events.next(t), "reload")
		late := f.openEvents("")
		ev := late.next(t)
		wantEventNamed(t, ev, "problems")
		if !strings.Contains(ev.Data, f.path("content/blog/x.md")) {
			t.Errorf("problems on connect: %s", ev.Data)
		}
	})
}

// TestDevSchedule: a post whose publish date arrives appears, and one
// whose expiry passes disappears, with no file change and without the
// files being read again; the browsers are told each time. The instants
// are a few seconds ahead; what is checked holds whenever the host
// happens to start: every snapshot made current shows exactly what its
// own instant publishes, and a reload is sent for the last one.
func TestDevSchedule(t *testing.T) {
	at := time.Now().Add(2 * time.Second).UTC().Truncate(time.Second).Add(time.Second)
	ends := at.Add(time.Second)
	f := startDev(t, newDevDir(t, map[string]string{
		"content/blog/old.md":    post("Old", "2026-01-01T00:00:00Z"),
		"content/blog/soon.md":   "---\ntitle: Soon\ndate: 2026-01-01T00:00:00Z\npublishDate: " + at.Format(time.RFC3339) + "\n---\nx\n",
		"content/blog/ending.md": "---\ntitle: Ending\ndate: 2026-01-01T00:00:00Z\nexpiryDate: " + ends.Format(time.RFC3339) + "\n---\nx\n",
	}), nil)
	events := f.openEvents("")
	start := f.h.Snapshot()
	last := f.waitSnap("both moves", func(s *pipeline.Snapshot) bool { return s.Post("soon") != nil && s.Post("ending") == nil })
	snaps := f.since(0)
	for _, s := range snaps {
		if soon, ending := s.Post("soon") != nil, s.Post("ending") != nil; soon == s.Now().Before(at) || ending != s.Now().Before(ends) {
			t.Errorf("the snapshot for %s shows soon %v, ending %v: %s", s.Now().Format(time.RFC3339Nano), soon, ending, describe([]*pipeline.Snapshot{s}))
		}
	}
	// The start and at most the two moves.
	if len(snaps) > 3 {
		t.Errorf("%d snapshots were made current, want at most 3: %s", len(snaps), describe(snaps))
	}
	for ev := events.next(t); ev.Data != strconv.FormatUint(last.ID(), 10); ev = events.next(t) {
		wantEventNamed(t, ev, "reload")
	}
	_, body := f.get("/api/posts.json")
	if !strings.Contains(body, `"slug":"soon"`) || strings.Contains(body, `"slug":"ending"`) {
		t.Errorf("after both moves, posts.json: %s", body)
	}
	if last.Post("old") != start.Post("old") {
		t.Error("the posts were read again; the schedule must move the snapshot without reading files")
	}
}

// TestDevDrafts: --drafts shows drafts, future and expired posts, marked.
func TestDevDrafts(t *testing.T) {
	dir := newDevDir(t, map[string]string{
		"content/blog/live.md":    post("Live", "2026-01-01T00:00:00Z"),
		"content/blog/draft.md":   "---\ntitle: Draft\ndate: 2026-01-01T00:00:00Z\ndraft: true\n---\nx\n",
		"content/blog/future.md":  post("Future", "2099-01-01T00:00:00Z"),
		"content/blog/expired.md": "---\ntitle: Expired\ndate: 2020-01-01T00:00:00Z\nexpiryDate: 2021-01-01T00:00:00Z\n---\nx\n",
	})
	plain := startDev(t, dir, nil)
	drafts := startDev(t, dir, func(s *Spec) { s.Drafts = true })
	for slug, status := range map[string]string{"draft": "draft", "future": "scheduled", "expired": "expired"} {
		if resp, _ := plain.get("/blog/" + slug + "/"); resp.StatusCode != 404 {
			t.Errorf("folio dev /blog/%s/: %d, want 404", slug, resp.StatusCode)
		}
		resp, body := drafts.get("/blog/" + slug + "/")
		if resp.StatusCode != 200 || !strings.Contains(body, "badge") || !strings.Contains(body, status) {
			t.Errorf("folio dev --drafts /blog/%s/: %d, no %q badge", slug, resp.StatusCode, status)
		}
	}
	_, body := drafts.get("/api/posts.json")
	var list struct {
		Items []struct {
			Slug  string `json:"slug"`
			Draft bool   `json:"draft"`
		} `json:"items"`
	}
	must(t, json.Unmarshal([]byte(body), &list))
	marked := map[string]bool{}
	for _, p := range list.Items {
		marked[p.Slug] = p.Draft
	}
	want := map[string]bool{"live": false, "draft": true, "future": true, "expired": true}
	for slug, draft := range want {
		if got, ok := marked[slug]; !ok || got != draft {
			t.Errorf("--drafts posts.json: %s listed=%v draft=%v, want draft=%v", slug, ok, got, draft)
		}
	}
	// A new draft written while running shows up too.
	drafts.write("content/blog/new-draft.md", "---\ntitle: New draft\ndate: 2026-02-01T00:00:00Z\ndraft: true\n---\nx\n")
	drafts.waitSnap("the new draft", func(s *pipeline.Snapshot) bool { return s.Post("new-draft") != nil })
}

// TestDevStopsEverything: after folio dev stops, with browsers connected
// and edits applied, no goroutine of it is left (watcher, loop, schedule,
// event streams).
func TestDevStopsEverything(t *testing.T) {
	http.DefaultClient.CloseIdleConnections()
	before := runtime.NumGoroutine()
	f := startDev(t, newDevDir(t, map[string]string{"content/blog/x.md": post("X", "2026-01-01T00:00:00Z")}), nil)
	streams := []*sseClient{f.openEvents(""), f.openEvents(""), f.openEvents("?since=old")}
	f.write("content/blog/x.md", post("Y", "2026-01-01T00:00:00Z"))
	for _, s := range streams {
		for ev := s.next(t); ev.Event != "reload"; ev = s.next(t) {
		}
	}
	f.stop()
	for _, s := range streams {
		<-s.done // the server ended each stream
	}
	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(devWait)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left over (was %d):\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
