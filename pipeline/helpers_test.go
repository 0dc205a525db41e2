package pipeline

import (
	"flag"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// testNow is the clock of most tests: a summer instant, so Europe/Paris is
// two hours ahead of UTC.
var testNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func paris(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// testConfig is the default configuration with dates read in Paris.
func testConfig(t testing.TB) *Config {
	t.Helper()
	cfg, err := ParseConfig([]byte(`timeZone = "Europe/Paris"`), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
	}
	return fsys
}

func build(t testing.TB, fsys fstest.MapFS, opts Options, now time.Time) *Snapshot {
	t.Helper()
	s, err := Build(fsys, testConfig(t), opts, now)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return s
}

// post returns a valid YAML post with extra front-matter lines; title T and
// date 2026-01-01T00:00:00Z unless the lines set them.
func post(extra ...string) string {
	s := "---\n"
	for _, l := range extra {
		s += l + "\n"
	}
	if !strings.Contains(s, "\ntitle:") {
		s += "title: T\n"
	}
	if !strings.Contains(s, "\ndate:") {
		s += "date: 2026-01-01T00:00:00Z\n"
	}
	return s + "---\nBody.\n"
}

func slugs(posts []*Post) []string {
	out := make([]string, len(posts))
	for i, p := range posts {
		out[i] = p.Slug
	}
	return out
}

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}
