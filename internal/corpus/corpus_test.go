package corpus_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"folio/internal/corpus"
	"folio/pipeline"
)

func TestDeterministic(t *testing.T) {
	a, b := corpus.Files(300, 7), corpus.Files(300, 7)
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Fatalf("%s differs between two runs", name)
		}
	}
	c := corpus.Files(300, 8)
	if bytes.Equal(a["blog/post-000010.md"], c["blog/post-000010.md"]) {
		t.Error("another seed wrote the same post")
	}
}

// TestMix builds the corpus and checks it has what gencorpus.py writes:
// every post valid, some of each front-matter format, drafts, future
// posts, bundles, non-ASCII tags.
func TestMix(t *testing.T) {
	const n = 1000
	files := corpus.Files(n, 1)
	count := func(pred func(name string, data []byte) bool) int {
		k := 0
		for name, data := range files {
			if pred(name, data) {
				k++
			}
		}
		return k
	}
	isPost := func(name string) bool { return strings.HasSuffix(name, ".md") }
	if got := count(func(name string, _ []byte) bool { return isPost(name) }); got != n {
		t.Errorf("%d posts, want %d", got, n)
	}
	for what, pred := range map[string]func(string, []byte) bool{
		"TOML":      func(name string, d []byte) bool { return isPost(name) && bytes.HasPrefix(d, []byte("+++\n")) },
		"JSON":      func(name string, d []byte) bool { return isPost(name) && bytes.HasPrefix(d, []byte("{\n")) },
		"YAML":      func(name string, d []byte) bool { return isPost(name) && bytes.HasPrefix(d, []byte("---\n")) },
		"bundles":   func(name string, _ []byte) bool { return strings.HasSuffix(name, "/index.md") },
		"tables":    func(_ string, d []byte) bool { return bytes.Contains(d, []byte("|---|")) },
		"code":      func(_ string, d []byte) bool { return bytes.Contains(d, []byte("```go")) },
		"non-ASCII": func(_ string, d []byte) bool { return bytes.Contains(d, []byte("日本語")) },
	} {
		if count(pred) == 0 {
			t.Errorf("no %s in the corpus", what)
		}
	}

	s, err := pipeline.Build(corpus.MapFS(n, 1), pipeline.DefaultConfig(), pipeline.Options{}, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems()) > 0 {
		t.Fatalf("problems: %v", s.Problems()[:min(5, len(s.Problems()))])
	}
	hidden := n - len(s.Posts()) // drafts (i%50 == 7) and 2040 posts (i%211 == 3)
	if hidden != 20+5 {
		t.Errorf("%d posts hidden, want 25 (20 drafts, 5 future)", hidden)
	}
	if p := s.Post("post-000005"); p == nil || len(p.Resources) != 1 || p.Resources[0] != "figure.svg" {
		t.Errorf("bundle post-000005 = %+v", p)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Write(dir, 50, 3); err != nil {
		t.Fatal(err)
	}
	for name, want := range corpus.Files(50, 3) {
		got, err := os.ReadFile(filepath.Join(dir, "content", filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := corpus.Write(dir, -1, 1); err == nil {
		t.Error("a negative count was accepted")
	}
}
