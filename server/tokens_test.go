package server

import (
	"encoding/json"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"folio/internal/corpus"
	"folio/pipeline"
	"folio/site"
)

// TestTokenEstimate measures x-markdown-tokens against a real BPE
// tokenizer, o200k_base from npm's js-tiktoken (it carries its ranks, so
// it runs offline once installed), on every Markdown answer of the sample
// blog, and with CI=true of the 10,000-post corpus. The contract allows a
// mean error of 10%; the README gives the figures this test logs.
func TestTokenEstimate(t *testing.T) {
	count := tiktoken(t)
	sets := []struct {
		name string
		fsys fs.FS
		cfg  string
	}{{"sample", os.DirFS("../content"), "../config.toml"}}
	if os.Getenv("CI") == "true" {
		sets = append(sets, struct {
			name string
			fsys fs.FS
			cfg  string
		}{"corpus of 10,000", corpus.MapFS(10000, 1), ""})
	}
	for _, set := range sets {
		bodies, headers := twinsOf(t, set.fsys, set.cfg)
		real := count(bodies)
		var sum, worst float64
		for i, n := range real {
			est, err := strconv.Atoi(headers[i])
			if err != nil || n == 0 {
				t.Fatalf("%s: answer %d: x-markdown-tokens %q, %d real tokens", set.name, i, headers[i], n)
			}
			e := abs(float64(est-n)) / float64(n)
			sum += e
			worst = max(worst, e)
		}
		mean := sum / float64(len(real))
		t.Logf("%s: %d Markdown answers, mean error %.1f%%, worst %.1f%%", set.name, len(real), 100*mean, 100*worst)
		if mean > 0.10 {
			t.Errorf("%s: mean error %.1f%% against o200k, over the 10%% the contract allows", set.name, 100*mean)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// twinsOf serves a content folder and returns every Markdown answer it
// has (each post's, the home page's, the directory's, the API page's and
// the skill) with its x-markdown-tokens header.
func twinsOf(t *testing.T, fsys fs.FS, config string) (bodies []string, tokens []string) {
	cfg := pipeline.DefaultConfig()
	if config != "" {
		var err error
		if cfg, err = pipeline.LoadConfig(config); err != nil {
			t.Fatal(err)
		}
	}
	cfg.BaseURL = "https://example.org/"
	snap, err := pipeline.Build(fsys, cfg, pipeline.Options{}, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(snap, Options{Site: site.FS})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	paths := []string{"/index.md", "/" + cfg.Section + ".md", "/api.md", "/" + skillPath}
	for _, p := range snap.Posts() {
		paths = append(paths, "/"+p.MarkdownPath(cfg.Section))
	}
	for _, p := range paths {
		resp, body := get(t, ts, "GET", p)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
		bodies = append(bodies, string(body))
		tokens = append(tokens, resp.Header.Get("X-Markdown-Tokens"))
	}
	return bodies, tokens
}

// tiktoken returns a function that counts o200k tokens of each text, with
// node and js-tiktoken. js-tiktoken is installed once into the user's
// cache folder ($FOLIO_NODE_MODULES overrides where it is looked for).
// Without node or the package the test is skipped, except in CI.
func tiktoken(t *testing.T) func([]string) []int {
	t.Helper()
	need := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		need("no node on PATH (CI installs it)")
	}
	dir := os.Getenv("FOLIO_NODE_MODULES")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			need("no cache folder for js-tiktoken: %v", err)
		}
		dir = filepath.Join(cache, "folio-test", "tiktoken")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "js-tiktoken", "package.json")); err != nil {
		out, err := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "js-tiktoken@1.0.21").CombinedOutput()
		if err != nil {
			need("npm install js-tiktoken: %v\n%s", err, out)
		}
	}
	script := filepath.Join(dir, "count.mjs")
	if err := os.WriteFile(script, []byte(`import { getEncoding } from "js-tiktoken";
import { readFileSync } from "node:fs";
const enc = getEncoding("o200k_base");
const texts = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(texts.map((s) => enc.encode(s).length)));
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return func(texts []string) []int {
		in, _ := json.Marshal(texts)
		cmd := exec.Command(node, script)
		cmd.Stdin = strings.NewReader(string(in))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node count.mjs: %v", err)
		}
		var counts []int
		if err := json.Unmarshal(out, &counts); err != nil || len(counts) != len(texts) {
			t.Fatalf("node count.mjs: %v, %d counts for %d texts", err, len(counts), len(texts))
		}
		return counts
	}
}
