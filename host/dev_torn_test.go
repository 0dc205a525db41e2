package host

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"folio/pipeline"
)

// TestDevNoTornReads hammers folio dev from many goroutines while edits
// stream in through the watcher (run it with -race). Every answer must
// come whole from one snapshot: posts.json's ETag always names the same
// body, its list is the list of a snapshot that was served, and each
// cursor page is a run of one served snapshot's list; a walk never
// returns a post twice nor skips one that existed throughout.
func TestDevNoTornReads(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("content/blog/stable-%02d.md", i)] = post(fmt.Sprintf("Stable %d", i), time.Date(2024, 1, 1+i, 0, 0, 0, 0, time.UTC).Format(time.RFC3339))
	}
	for i := range 5 {
		files[fmt.Sprintf("content/blog/hot-%d.md", i)] = post(fmt.Sprintf("Hot %d v0", i), time.Date(2024, 1, 3+i*7, 12, 0, 0, 0, time.UTC).Format(time.RFC3339))
	}
	dir := newDevDir(t, files)
	writeFile(t, dir+"/config.toml", devConfig+"[api]\npageSize = 7\n")
	f := startDev(t, dir, nil)

	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 16}}
	var stop atomic.Bool
	var mu sync.Mutex
	etags := map[string][32]byte{}
	var lists [][]item // posts.json lists seen
	var pages []page   // cursor pages seen
	var walks [][]string
	var errs []string
	fail := func(format string, args ...any) {
		mu.Lock()
		errs = append(errs, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	fetch := func(path string) (string, []byte, bool) {
		resp, err := client.Get(f.url + path)
		if err != nil {
			fail("GET %s: %v", path, err)
			return "", nil, false
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			fail("GET %s: %d %v", path, resp.StatusCode, err)
			return "", nil, false
		}
		etag, sum := resp.Header.Get("ETag"), sha256.Sum256(body)
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := etags[etag]; ok && prev != sum {
			errs = append(errs, fmt.Sprintf("GET %s: ETag %s named two different bodies", path, etag))
		}
		etags[etag] = sum
		return etag, body, true
	}

	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if g%2 == 0 {
					_, body, ok := fetch("/api/posts.json")
					var list struct{ Items []item }
					if ok && json.Unmarshal(body, &list) == nil {
						mu.Lock()
						lists = append(lists, list.Items)
						mu.Unlock()
					}
					continue
				}
				var walk []string
				for cursor := "0"; ; {
					_, body, ok := fetch("/api/posts/cursor/" + cursor + ".json")
					var pg page
					if !ok || json.Unmarshal(body, &pg) != nil {
						fail("cursor %s: %s", cursor, body)
						break
					}
					mu.Lock()
					pages = append(pages, pg)
					mu.Unlock()
					for _, it := range pg.Items {
						walk = append(walk, it.Slug)
					}
					if pg.NextCursor == nil {
						break
					}
					cursor = *pg.NextCursor
				}
				mu.Lock()
				walks = append(walks, walk)
				mu.Unlock()
			}
		}()
	}

	// Edits: hot posts change title, temporary posts come and go.
	for i := range 40 {
		hot := i % 5
		f.write(fmt.Sprintf("content/blog/hot-%d.md", hot), post(fmt.Sprintf("Hot %d v%d", hot, i+1), time.Date(2024, 1, 3+hot*7, 12, 0, 0, 0, time.UTC).Format(time.RFC3339)))
		tmp := f.path(fmt.Sprintf("content/blog/temp-%d.md", i%3))
		if i%2 == 0 {
			writeFile(t, tmp, post(fmt.Sprintf("Temp %d", i), time.Date(2024, 1, 2+i, 6, 0, 0, 0, time.UTC).Format(time.RFC3339)))
		} else {
			os.Remove(tmp)
		}
		// Each edit is a burst of its own, served before the next.
		want := fmt.Sprintf("Hot %d v%d", hot, i+1)
		f.waitSnap(want, func(s *pipeline.Snapshot) bool { return titleOf(s, fmt.Sprintf("hot-%d", hot)) == want })
	}
	f.afterSettling(0)
	stop.Store(true)
	wg.Wait()
	for _, e := range errs {
		t.Error(e)
	}

	snaps := f.since(0)
	if len(snaps) < 40 {
		t.Fatalf("only %d snapshots: the edits did not stream in", len(snaps))
	}
	for _, list := range lists {
		if !anySnapshot(snaps, func(s *pipeline.Snapshot) bool { return window(s, list, 0) && len(list) == len(s.Posts()) }) {
			t.Errorf("posts.json matched no served snapshot: %v", list)
		}
	}
	for _, pg := range pages {
		if !anySnapshot(snaps, func(s *pipeline.Snapshot) bool { return pageOf(s, pg) }) {
			t.Errorf("a cursor page matched no served snapshot: %v", pg.Items)
		}
	}
	for _, walk := range walks {
		seen := map[string]int{}
		for _, slug := range walk {
			seen[slug]++
		}
		for slug, n := range seen {
			if n > 1 {
				t.Errorf("a walk returned %s %d times", slug, n)
			}
		}
		for i := range 40 {
			if slug := fmt.Sprintf("stable-%02d", i); seen[slug] != 1 {
				t.Errorf("a walk skipped %s", slug)
			}
		}
	}
	t.Logf("%d snapshots; %d posts.json, %d cursor pages, %d walks checked", len(snaps), len(lists), len(pages), len(walks))
	if len(lists) == 0 || len(walks) == 0 {
		t.Error("the readers read nothing")
	}
}

type item struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

type page struct {
	Items      []item  `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func anySnapshot(snaps []*pipeline.Snapshot, ok func(*pipeline.Snapshot) bool) bool {
	for _, s := range snaps {
		if ok(s) {
			return true
		}
	}
	return false
}

// window reports whether items are s.Posts()[at:at+len(items)].
func window(s *pipeline.Snapshot, items []item, at int) bool {
	if at < 0 || at+len(items) > len(s.Posts()) {
		return false
	}
	for i, it := range items {
		p := s.Posts()[at+i]
		if p.Slug != it.Slug || p.Title != it.Title {
			return false
		}
	}
	return true
}

// pageOf reports whether pg is a run of s's list, with a next cursor
// exactly when the run does not reach the end.
func pageOf(s *pipeline.Snapshot, pg page) bool {
	if len(pg.Items) == 0 {
		return len(s.Posts()) == 0 && pg.NextCursor == nil
	}
	for at, p := range s.Posts() {
		if p.Slug == pg.Items[0].Slug {
			last := at+len(pg.Items) == len(s.Posts())
			return window(s, pg.Items, at) && last == (pg.NextCursor == nil)
		}
	}
	return false
}
