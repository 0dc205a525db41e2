package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	if c.ContentDir != "content" || c.Section != "blog" || c.TimeZone != "UTC" || c.Location != time.UTC ||
		c.Feed.Limit != 20 || c.API.PageSize != 50 || c.Cache.MaxAge != 300 || c.BaseURL != "" || c.BaseSet || c.Markup.Unsafe {
		t.Errorf("DefaultConfig() = %+v", c)
	}
	// An empty file is the defaults, and they validate.
	p, err := ParseConfig(nil, "config.toml")
	if err != nil {
		t.Fatal(err)
	}
	if p.ContentDir != c.ContentDir || p.Section != c.Section || p.API != c.API || p.Location.String() != "UTC" {
		t.Errorf("ParseConfig(empty) = %+v", p)
	}
}

func TestParseConfig(t *testing.T) {
	src := `baseURL = "https://example.org/sub"
title = "Field Notes"
description = "d"
language = "fr"
author = "A"
contentDir = "posts"
section = "/notes/"
timeZone = "Europe/Paris"
siteDir = "theme"
[feed]
limit = 0
[api]
pageSize = 10
[cache]
maxAge = 60
[markup]
unsafe = true
`
	c, err := ParseConfig([]byte(src), "config.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL != "https://example.org/sub/" || !c.BaseSet {
		t.Errorf("baseURL = %q (set %v), want a trailing slash added", c.BaseURL, c.BaseSet)
	}
	if c.Section != "notes" || c.ContentDir != "posts" || c.SiteDir != "theme" || c.Location.String() != "Europe/Paris" ||
		c.Feed.Limit != 0 || c.API.PageSize != 10 || c.Cache.MaxAge != 60 || !c.Markup.Unsafe || c.Language != "fr" {
		t.Errorf("ParseConfig = %+v", c)
	}
	if got := c.AbsURL("/blog/x/"); got != "https://example.org/sub/blog/x/" {
		t.Errorf("AbsURL = %q", got)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // parts of the message
	}{
		{"unknown key", "title = 'x'\ntitel = 'y'\n", []string{"config.toml", "unknown key", "titel"}},
		{"unknown nested key", "[feed]\nlimt = 3\n", []string{"unknown key", "feed.limt"}},
		{"unknown table", "[params]\nx = 1\n", []string{"unknown key", "params"}},
		{"string for int", "[api]\n\npageSize = \"ten\"\n", []string{"config.toml:3: api.pageSize: ", "string"}},
		{"int for string", "title = 5\n", []string{"config.toml:1: title: ", "must be a string, not an integer"}},
		{"string for bool", "[markup]\nunsafe = 'yes'\n", []string{"config.toml:2: markup.unsafe: ", "boolean"}},
		{"syntax", "title = \n", []string{"config.toml:1:"}},
		{"relative baseURL", "baseURL = '/blog/'\n", []string{"baseURL", "absolute"}},
		{"schemeless baseURL", "baseURL = 'example.org'\n", []string{"baseURL", "absolute"}},
		{"ftp baseURL", "baseURL = 'ftp://example.org/'\n", []string{"baseURL"}},
		{"baseURL with query", "baseURL = 'https://example.org/?a=b'\n", []string{"baseURL", "query"}},
		{"page size 0", "[api]\npageSize = 0\n", []string{"api.pageSize"}},
		{"page size 51", "[api]\npageSize = 51\n", []string{"api.pageSize"}},
		{"negative feed limit", "[feed]\nlimit = -1\n", []string{"feed.limit"}},
		{"negative max age", "[cache]\nmaxAge = -1\n", []string{"cache.maxAge"}},
		{"bad time zone", "timeZone = 'Mars/Olympus'\n", []string{"timeZone", "Mars/Olympus"}},
		{"section api", "section = 'api'\n", []string{"section"}},
		{"section with slash", "section = 'a/b'\n", []string{"section"}},
		{"empty section", "section = '/'\n", []string{"section"}},
		{"section ..", "section = '..'\n", []string{"section"}},
		{"section with a wildcard", "section = '{x}'\n", []string{"section", "plain path segment"}},
		{"section with a space", "section = 'a b'\n", []string{"section", "plain path segment"}},
		{"section with a tab", "section = \"a\\tb\"\n", []string{"section", "plain path segment"}},
		{"reserved section in capitals", "section = 'RSS.xml'\n", []string{"section", "taken by one of folio's own routes"}},
		{"reserved section's gzip twin", "section = 'index.html.gz'\n", []string{"section", "taken by one of folio's own routes"}},
	}
	for _, name := range ReservedSections {
		tests = append(tests, struct {
			name, src string
			want      []string
		}{"section " + name, "section = '" + name + "'\n", []string{"section", "taken by one of folio's own routes"}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.src), "config.toml")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadConfigPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(src string) string {
		p := filepath.Join(dir, "site", "config.toml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Relative paths are relative to the config file's folder.
	c, err := LoadConfig(write("contentDir = 'posts'\nsiteDir = '../theme'\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "site", "posts"); c.ContentDir != want {
		t.Errorf("contentDir = %q, want %q", c.ContentDir, want)
	}
	if want := filepath.Join(dir, "theme"); c.SiteDir != want {
		t.Errorf("siteDir = %q, want %q", c.SiteDir, want)
	}
	// The default contentDir too; an unset siteDir stays unset.
	c, err = LoadConfig(write("title = 'x'\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "site", "content"); c.ContentDir != want || c.SiteDir != "" {
		t.Errorf("contentDir = %q, siteDir = %q", c.ContentDir, c.SiteDir)
	}
	// Absolute paths are kept.
	abs := filepath.Join(dir, "elsewhere")
	c, err = LoadConfig(write("contentDir = '" + filepath.ToSlash(abs) + "'\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.ContentDir != filepath.Clean(abs) {
		t.Errorf("contentDir = %q, want %q", c.ContentDir, abs)
	}
	// Errors name the file.
	p := write("bogus = 1\n")
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("error %v does not name %s", err, p)
	}
	// A missing file is an error the caller can recognise (folio then
	// falls back to the defaults when no --config was given).
	if _, err := LoadConfig(filepath.Join(dir, "nope.toml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestValidateAfterFlags(t *testing.T) {
	c := DefaultConfig()
	c.BaseURL = "http://127.0.0.1:1313"
	if err := c.Validate(); err != nil || c.BaseURL != "http://127.0.0.1:1313/" {
		t.Errorf("Validate: %v, %q", err, c.BaseURL)
	}
	c.BaseURL = "not a url"
	if err := c.Validate(); err == nil {
		t.Error("Validate accepted a relative baseURL")
	}
}
