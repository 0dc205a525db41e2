package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A site is a config file and a content folder in a temporary folder.
type site struct {
	Dir     string
	Config  string // config.toml
	Content string // content/
}

// baseConfig is the config of test sites: the title, then extra TOML.
const baseConfig = `baseURL = "https://example.org/"
title = %q
description = "A blog for tests."
author = "Tester"
%s
`

// newSite writes config (baseConfig plus extra) and files, paths relative
// to the content folder.
func newSite(t *testing.T, extra string, files map[string]string) *site {
	t.Helper()
	dir := t.TempDir()
	s := &site{Dir: dir, Config: filepath.Join(dir, "config.toml"), Content: filepath.Join(dir, "content")}
	s.writeConfig(t, "Test blog", extra)
	for name, body := range files {
		s.write(t, name, body)
	}
	return s
}

func (s *site) writeConfig(t *testing.T, title, extra string) {
	t.Helper()
	if err := os.WriteFile(s.Config, []byte(fmt.Sprintf(baseConfig, title, extra)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// write writes one content file, replacing it atomically as editors do.
func (s *site) write(t *testing.T, name, body string) {
	t.Helper()
	path := filepath.Join(s.Content, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// post is a Markdown post with YAML front matter.
func post(title, date string, more ...string) string {
	return "---\ntitle: \"" + title + "\"\ndate: " + date + "\n" + strings.Join(more, "\n") + "\n---\n" +
		"The body of " + title + ".\n"
}
