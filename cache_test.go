package main

import (
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

	"folio/internal/corpus"
	"folio/internal/syncbuf"
)

// TestMain keeps the parse caches of the serve and dev the tests start in
// a folder of their own, removed at the end, rather than the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "folio-test-cache-")
	if err == nil {
		os.Setenv("CACHE_DIRECTORY", dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestCacheFolder: the parse cache is in --cache-dir, else
// $CACHE_DIRECTORY (the first of several), else the user's cache
// folder's folio/; none with --no-cache or without any of them; one file
// per command and site.
func TestCacheFolder(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		name          string
		o             options
		env, xdg, hom string
		want          string // the folder, "" for no cache
	}{
		{"--cache-dir", options{command: "serve", cacheDir: "/srv/cache"}, "/var/cache/folio", "", home, "/srv/cache"},
		{"systemd's CacheDirectory=", options{command: "serve"}, "/var/cache/folio", "", home, "/var/cache/folio"},
		{"systemd's first of two", options{command: "serve"}, "/var/cache/folio:/var/cache/other", "", home, "/var/cache/folio"},
		{"XDG_CACHE_HOME", options{command: "dev"}, "", "/home/a/.cache", home, "/home/a/.cache/folio"},
		{"the home's .cache", options{command: "serve"}, "", "", home, filepath.Join(home, ".cache", "folio")},
		{"no home", options{command: "serve"}, "", "", "", ""},
		{"--no-cache", options{command: "serve", cacheDir: "/srv/cache", noCache: true}, "/var/cache/folio", "", home, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CACHE_DIRECTORY", tc.env)
			t.Setenv("XDG_CACHE_HOME", tc.xdg)
			t.Setenv("HOME", tc.hom)
			got := cacheFile(&tc.o, tc.o.spec())
			if tc.want == "" {
				if got != "" {
					t.Errorf("cache %q, want none", got)
				}
				return
			}
			if filepath.Dir(got) != tc.want || !regexp.MustCompile(`^`+tc.o.command+`-[0-9a-f]{16}\.folio-cache$`).MatchString(filepath.Base(got)) {
				t.Errorf("cache %q, want %s-<digest>.folio-cache in %s", got, tc.o.command, tc.want)
			}
		})
	}
	t.Setenv("CACHE_DIRECTORY", "/c")
	a := cacheFile(&options{command: "serve", source: "site-a"}, (&options{source: "site-a"}).spec())
	b := cacheFile(&options{command: "serve", source: "site-b"}, (&options{source: "site-b"}).spec())
	d := cacheFile(&options{command: "dev", source: "site-a"}, (&options{source: "site-a"}).spec())
	if a == b || a == d {
		t.Errorf("two sites or two commands share a cache file: %s %s %s", a, b, d)
	}
}

// TestServeStartsFromCache runs folio serve as main does, twice: the first
// start parses every file and then saves the parse cache in the
// background; the second, after one post was edited, parses that post
// alone and serves it as edited.
func TestServeStartsFromCache(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Write(dir, 40, 3); err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{"hugo.toml": "title = 'Cached'\n"})
	cacheDir := filepath.Join(t.TempDir(), "cache")
	saved := regexp.MustCompile(`msg="parse cache saved" file=\S+ parsed=(\d+) from_cache=(\d+)`)
	var lastLog string
	serve := func() (parsed, cached string, page string) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var stderr syncbuf.Buffer
		done := make(chan error, 1)
		o := &options{command: "serve", source: dir, addr: "127.0.0.1:0", baseURL: "https://blog.example.org/", cacheDir: cacheDir}
		go func() {
			done <- runServe(ctx, o, stdio{out: io.Discard, err: &stderr, log: slog.New(slog.DiscardHandler)})
		}()
		line := regexp.MustCompile(`folio: serving (http://127\.0\.0\.1:[1-9][0-9]*/)`)
		var m, s []string
		for deadline := time.Now().Add(60 * time.Second); m == nil || s == nil; time.Sleep(10 * time.Millisecond) {
			m, s = line.FindStringSubmatch(stderr.String()), saved.FindStringSubmatch(stderr.String())
			if time.Now().After(deadline) {
				t.Fatalf("no start line, or no cache saved: %q", stderr.String())
			}
		}
		resp, err := http.Get(m[1] + "blog/post-000002/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		lastLog = stderr.String()
		return s[1], s[2], string(body)
	}
	parsed, cached, _ := serve()
	if cached != "0" || parsed == "0" {
		t.Errorf("the first start: %s parsed, %s from the cache; want all parsed", parsed, cached)
	}
	post := filepath.Join(dir, "content", "blog", "post-000002.md")
	data, err := os.ReadFile(post)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(post, append(data, "\nA paragraph added since.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	parsed, cached, page := serve()
	if parsed != "1" || cached == "0" {
		t.Errorf("the second start: %s parsed, %s from the cache; want 1 parsed", parsed, cached)
	}
	if !regexp.MustCompile(`msg="started from the parse cache" parsed=1 from_cache=[1-9]`).MatchString(lastLog) {
		t.Errorf("the second start does not say it started from the cache:\n%s", lastLog)
	}
	if !strings.Contains(page, "A paragraph added since.") {
		t.Errorf("the edited post is served as it was")
	}
}
