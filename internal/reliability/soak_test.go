package reliability

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"folio/pipeline"
	"folio/server"
	"folio/site"
	"folio/watch"
)

// soakLength is how much the soak does: soakBursts bursts of edits, each
// waited for until the server shows it, with every client making at least
// soakRequests requests; or, with FOLIO_SOAK (a Go duration such as "5m"),
// bursts until that long has passed. The default is counted, not timed,
// so a busy machine takes longer and checks the same.
func soakLength(t *testing.T) (bursts int, until time.Duration) {
	if v := os.Getenv("FOLIO_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("FOLIO_SOAK=%q: %v", v, err)
		}
		return 0, d
	}
	return soakBursts, 0
}

const (
	stablePosts  = 24 // never touched: every cursor walk must return each once
	churnPosts   = 24 // edited, deleted and added again during the soak
	soakClients  = 8
	soakBursts   = 60
	soakRequests = 60
)

// TestSoak serves a content folder over loopback to concurrent clients
// while an editor rewrites, deletes and re-adds posts (in place and by
// rename, as editors save) in bursts, and the real watcher feeds Update
// and Swap, as folio serve --watch does; after each burst the editor
// waits until the server shows it. Every answer is checked: no 5xx; no
// torn response (one ETag always names one body, and Content-Length
// matches); every cursor walk returns each post at most once and every
// stable post exactly once, in order; and the heap after warm-up, sampled
// after each burst, stays flat.
func TestSoak(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, soakContent())
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap, err := pipeline.Build(root.FS(), testConfig(t), pipeline.Options{Root: dir}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(snap, server.Options{Site: site.FS, Started: started})
	if err != nil {
		t.Fatal(err)
	}
	addr := listen(t, srv)

	bursts, until := soakLength(t)
	start := time.Now()
	watching, stopWatching := context.WithCancel(context.Background())
	editing, stopEditing := context.WithCancel(context.Background())
	st := &soakStats{etags: map[string][32]byte{}}
	var watcher, clients sync.WaitGroup
	// The watcher starts before the first edit, so that none is missed.
	w, err := watch.New([]string{dir}, watch.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	watcher.Go(func() { st.swaps.Store(int64(applyBatches(watching, t, w, srv))) })
	for i := range soakClients {
		clients.Go(func() { st.client(editing, t, addr, uint64(i)) })
	}
	st.bursts, err = edit(t, dir, srv, bursts, until, &st.heap)
	stopEditing()
	clients.Wait()
	stopWatching()
	watcher.Wait()
	if err != nil {
		t.Fatal(err)
	}
	st.report(t, time.Since(start))
}

// soakContent is the starting folder: stable and churning posts with
// distinct dates (a post's date is never edited, so its keyset position
// never moves).
func soakContent() map[string]string {
	files := map[string]string{}
	for i := range stablePosts {
		files[fmt.Sprintf("blog/stable-%02d.md", i)] = soakPost("Stable", i, 0)
	}
	for i := range churnPosts {
		files[fmt.Sprintf("blog/churn-%02d.md", i)] = soakPost("Churn", stablePosts+i, 0)
	}
	return files
}

func soakPost(kind string, i, rev int) string {
	return fmt.Sprintf("---\ntitle: %s %d rev %d\ndate: 2024-01-01T%02d:%02d:00Z\ntags: [t%d]\n---\nBody %d, revision %d.\n\n%s\n",
		kind, i, rev, i/60, i%60, i%5, i, rev, soakFiller[:rev%len(soakFiller)])
}

// soakFiller varies the body sizes around the 1 KiB compression limit.
var soakFiller = strings.Repeat("filler ", 300)

// listen serves h on a loopback port until the test ends.
func listen(t *testing.T, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// applyBatches is folio serve --watch's loop: each batch of the real
// watcher is read with Update and swapped in. It returns the swaps made.
func applyBatches(ctx context.Context, t *testing.T, w *watch.Watcher, srv *server.Server) int {
	swaps := 0
	for {
		select {
		case <-ctx.Done():
			return swaps
		case batches, ok := <-w.Batches():
			if !ok {
				t.Error("the watcher stopped")
				return swaps
			}
			old := srv.Snapshot()
			var paths []string
			for _, b := range batches {
				if b.Rescan {
					paths = append(paths, old.Config().Section)
				}
				paths = append(paths, b.Paths...)
			}
			next, err := old.Update(paths, time.Now())
			if err != nil {
				t.Errorf("update: %v", err)
				continue
			}
			srv.Swap(next)
			swaps++
		}
	}
}

// edit rewrites, deletes and re-adds the churning posts in bursts of one
// to six edits (a save, a git checkout), in place or through a temporary
// file renamed over the post, as editors save. After each burst it waits
// until srv shows every post of the burst as last written, and samples
// the heap into heap. It makes bursts bursts, or bursts until the time
// until has passed when bursts is 0, and returns how many it made, and
// why it stopped early.
func edit(t *testing.T, dir string, srv *server.Server, bursts int, until time.Duration, heap *[]uint64) (int, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	start, n, b := time.Now(), 0, 0
	for ; bursts > 0 && b < bursts || bursts == 0 && time.Since(start) < until; b++ {
		want := map[string]string{} // slug → its title, "" when removed
		for range 1 + rng.IntN(6) {
			i := rng.IntN(churnPosts)
			name := filepath.Join(dir, "blog", fmt.Sprintf("churn-%02d.md", i))
			body := []byte(soakPost("Churn", stablePosts+i, n))
			slug, title := fmt.Sprintf("churn-%02d", i), fmt.Sprintf("Churn %d rev %d", stablePosts+i, n)
			var err error
			switch rng.IntN(4) {
			case 0:
				err, title = os.Remove(name), ""
				if os.IsNotExist(err) {
					err = nil
				}
			case 1:
				tmp := filepath.Join(dir, "blog", fmt.Sprintf(".churn-%02d.md.tmp", i))
				if err = os.WriteFile(tmp, body, 0o644); err == nil {
					err = os.Rename(tmp, name)
				}
			default:
				err = os.WriteFile(name, body, 0o644)
			}
			if err != nil {
				t.Errorf("edit: %v", err)
			}
			want[slug] = title
			n++
			time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond)
		}
		if err := shows(srv, want); err != nil {
			return b, err
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		*heap = append(*heap, m.HeapInuse)
	}
	return b, nil
}

// shows waits until srv's snapshot has each slug with its title, or not
// at all for "": the watcher delivered the burst and it was swapped in.
// The wait is generous; nothing here asserts speed.
func shows(srv *server.Server, want map[string]string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		missing := ""
		snap := srv.Snapshot()
		for slug, title := range want {
			got := ""
			if p := snap.Post(slug); p != nil {
				got = p.Title
			}
			if got != title {
				missing = fmt.Sprintf("%s is %q, want %q", slug, got, title)
				break
			}
		}
		if missing == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after 30 s the server does not show the last burst of edits: %s", missing)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// soakStats are what the clients saw.
type soakStats struct {
	bursts                                     int
	requests, walks, pages, notModified, swaps atomic.Int64
	statuses                                   sync.Map // int → *atomic.Int64
	mu                                         sync.Mutex
	etags                                      map[string][32]byte // ETag (+ coding) → body hash
	heap                                       []uint64
}

func (st *soakStats) count(status int) {
	v, _ := st.statuses.LoadOrStore(status, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

// client asks for posts.json (plain, gzip, conditional), walks the
// cursor pages and reads pages, feeds, until ctx ends and it has made
// soakRequests rounds (its seed fixes what they are, so every client
// walks the cursor pages at least once).
func (st *soakStats) client(ctx context.Context, t *testing.T, addr string, seed uint64) {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 2}}
	rng := rand.New(rand.NewPCG(seed, 7))
	for round := 0; ctx.Err() == nil || round < soakRequests; round++ {
		switch rng.IntN(6) {
		case 0, 1:
			st.walk(t, hc, addr)
		case 2:
			st.get(t, hc, addr, "/api/posts.json", "gzip", "")
		case 3:
			etag := st.get(t, hc, addr, "/api/posts.json", "", "")
			st.get(t, hc, addr, "/api/posts.json", "", etag)
		case 4:
			st.get(t, hc, addr, fmt.Sprintf("/blog/churn-%02d/", rng.IntN(churnPosts)), "", "")
		default:
			st.get(t, hc, addr, []string{"/rss.xml", "/llms.txt", "/sitemap.xml", "/", "/blog/"}[rng.IntN(5)], "gzip", "")
		}
	}
}

// get asks for one URL and checks the answer: no 5xx, a body as long as
// its Content-Length, and the body its ETag named before. It returns the
// ETag.
func (st *soakStats) get(t *testing.T, hc *http.Client, addr, path, coding, inm string) string {
	req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
	if coding != "" {
		req.Header.Set("Accept-Encoding", coding)
	}
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	body, res := st.do(t, hc, req)
	if res == nil {
		return ""
	}
	etag := res.Header.Get("ETag")
	if res.StatusCode == http.StatusNotModified {
		st.notModified.Add(1)
		return etag
	}
	if res.StatusCode == 200 && etag != "" {
		st.sameBody(t, path, etag, body)
	}
	return etag
}

func (st *soakStats) do(t *testing.T, hc *http.Client, req *http.Request) ([]byte, *http.Response) {
	res, err := hc.Do(req)
	if err != nil {
		if req.Context().Err() == nil {
			t.Errorf("GET %s: %v", req.URL.Path, err)
		}
		return nil, nil
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	st.requests.Add(1)
	st.count(res.StatusCode)
	if err != nil || (res.ContentLength >= 0 && int64(len(body)) != res.ContentLength) {
		t.Errorf("GET %s: torn body: %d bytes of %d (%v)", req.URL.Path, len(body), res.ContentLength, err)
	}
	if res.StatusCode >= 500 {
		t.Errorf("GET %s: %d", req.URL.Path, res.StatusCode)
	}
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err == nil {
			body, err = io.ReadAll(zr)
		}
		if err != nil {
			t.Errorf("GET %s: gzip: %v", req.URL.Path, err)
		}
	}
	return body, res
}

// sameBody checks that etag always names the same body.
func (st *soakStats) sameBody(t *testing.T, path, etag string, body []byte) {
	sum := sha256.Sum256(body)
	st.mu.Lock()
	defer st.mu.Unlock()
	if prev, ok := st.etags[etag]; ok && prev != sum {
		t.Errorf("GET %s: ETag %s named another body before: a torn or mixed response", path, etag)
	}
	st.etags[etag] = sum
}

// walk follows the cursor pages from 0 to the end: no post twice, every
// stable post once, newest first. One exception: a churning post saved in
// place can be read half-written, without its date, and a post without a
// date is listed last (as Hugo lists it), so a walk under way may meet it
// at its date and again at the end, once without one.
func (st *soakStats) walk(t *testing.T, hc *http.Client, addr string) {
	seen := map[string]time.Time{}
	var last time.Time
	cursor := pipeline.FirstCursor
	for pages := 0; ; pages++ {
		if pages > 2*(stablePosts+churnPosts) {
			t.Errorf("a cursor walk passed %d pages", pages)
			return
		}
		req, _ := http.NewRequest("GET", "http://"+addr+"/api/posts/cursor/"+cursor+".json", nil)
		body, res := st.do(t, hc, req)
		if res == nil {
			return
		}
		st.pages.Add(1)
		var page struct {
			Items []struct {
				Slug string    `json:"slug"`
				Date time.Time `json:"date"`
			} `json:"items"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(body, &page); err != nil || res.StatusCode != 200 {
			t.Errorf("cursor %s: %d %v: %.200s", cursor, res.StatusCode, err, body)
			return
		}
		for _, it := range page.Items {
			if date, ok := seen[it.Slug]; ok && !date.IsZero() && !it.Date.IsZero() {
				t.Errorf("a cursor walk returned %s twice", it.Slug)
			}
			if !last.IsZero() && it.Date.After(last) {
				t.Errorf("a cursor walk went back in time at %s", it.Slug)
			}
			seen[it.Slug] = it.Date
			if !it.Date.IsZero() {
				last = it.Date
			}
		}
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	for i := range stablePosts {
		if slug := fmt.Sprintf("stable-%02d", i); seen[slug].IsZero() {
			t.Errorf("a cursor walk skipped %s, which existed throughout", slug)
		}
	}
	st.walks.Add(1)
}

// report logs the figures and checks the heap: the highest HeapInuse
// after warm-up (the first third) is at most twice the warm-up's highest
// plus 32 MB.
func (st *soakStats) report(t *testing.T, d time.Duration) {
	var statuses []string
	st.statuses.Range(func(k, v any) bool {
		statuses = append(statuses, fmt.Sprintf("%d×%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	slices.Sort(statuses)
	warm := st.heap[:max(len(st.heap)/3, 1)]
	after := st.heap[len(warm):]
	if len(after) == 0 {
		after = warm
	}
	warmMax, afterMax, afterMin := slices.Max(warm), slices.Max(after), slices.Min(after)
	t.Logf("soak %v: %d requests (%.0f/s), statuses %v, %d cursor walks (%d pages), %d 304s, %d bursts of edits, %d snapshots swapped, %d ETags",
		d.Round(time.Millisecond), st.requests.Load(), float64(st.requests.Load())/d.Seconds(), statuses, st.walks.Load(), st.pages.Load(),
		st.notModified.Load(), st.bursts, st.swaps.Load(), len(st.etags))
	t.Logf("HeapInuse: warm-up max %d MB; after warm-up %d–%d MB (%d samples, one after each burst)", warmMax>>20, afterMin>>20, afterMax>>20, len(st.heap))
	if st.walks.Load() == 0 || st.swaps.Load() == 0 || st.bursts == 0 {
		t.Errorf("the soak did not exercise anything: %d walks, %d swaps, %d bursts", st.walks.Load(), st.swaps.Load(), st.bursts)
	}
	if afterMax > 2*warmMax+32<<20 {
		t.Errorf("the heap grew after warm-up: %d MB, warm-up max %d MB", afterMax>>20, warmMax>>20)
	}
}
