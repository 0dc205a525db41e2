// Package corpus writes synthetic Hugo-style blogs for benchmarks and load
// tests. It mirrors ../shared/bench/gencorpus.py, so folio's figures can be
// set beside those of other tools run on the Python corpus: mostly YAML
// front matter, some TOML and JSON, a few drafts, future-dated posts, page
// bundles with an SVG and posts without a category; bodies of 1-8 KB mixing
// headings, paragraphs, lists, tables, code blocks and links; tags with
// non-ASCII letters.
//
// The output depends only on n and the seed. (The Python script dates its
// future posts from the clock; here they are fixed in 2040 so that two runs
// write the same bytes.)
package corpus

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing/fstest"
	"time"
)

// Section is the folder under the content root that holds the posts.
const Section = "blog"

// Files returns the corpus as content-relative paths ("blog/post-000001.md",
// "blog/post-000005/index.md", "blog/post-000005/figure.svg") and their bytes.
func Files(n int, seed int64) map[string][]byte {
	g := &gen{r: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
	out := make(map[string][]byte, n+n/40+1)
	for i := range n {
		g.post(out, i)
	}
	return out
}

// MapFS returns the corpus as an in-memory content folder, for benchmarks
// that should measure parsing and not the disk.
func MapFS(n int, seed int64) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range Files(n, seed) {
		fsys[name] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return fsys
}

// Write writes the corpus under dir/content/, as gencorpus.py does, creating
// the folders it needs.
func Write(dir string, n int, seed int64) error {
	if n < 0 {
		return fmt.Errorf("corpus: negative post count %d", n)
	}
	files := Files(n, seed)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	root := filepath.Join(dir, "content")
	for _, name := range names {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("corpus: %w", err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return fmt.Errorf("corpus: %w", err)
		}
	}
	return nil
}

// Check that MapFS satisfies what the pipeline takes.
var _ fs.FS = fstest.MapFS{}

var (
	start  = time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	future = time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)
)

type gen struct{ r *rand.Rand }

// post adds post i to out.
func (g *gen) post(out map[string][]byte, i int) {
	slug := fmt.Sprintf("post-%06d", i)
	fm := g.frontMatter(i)
	text := g.body()
	var head string
	switch i % 10 {
	case 1:
		head = fm.toml()
	case 2:
		head = fm.json()
	default:
		head = fm.yaml()
	}
	name := Section + "/" + slug + ".md"
	if i%40 == 5 {
		name = Section + "/" + slug + "/index.md"
		out[Section+"/"+slug+"/figure.svg"] = []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`)
		text += "\n![figure](figure.svg)\n"
	}
	out[name] = []byte(head + "\n" + text)
}

func (g *gen) frontMatter(i int) frontMatter {
	date := start.Add(time.Duration(g.r.IntN(10*365*24*60+1)) * time.Minute)
	title := g.sentence(3 + g.r.IntN(7))
	title = title[:len(title)-1]
	if i%97 == 0 {
		title += " — ünïcødé “quotes” & <angle>"
	}
	fm := frontMatter{
		{"title", title},
		{"description", g.sentence(0)},
		{"date", date.Format(time.RFC3339)},
		{"tags", g.tags()},
	}
	switch c := g.r.IntN(len(categories) + 1); {
	case c == len(categories): // no categories key at all
	case categories[c] == "":
		fm = append(fm, field{"categories", []string{}})
	default:
		fm = append(fm, field{"categories", []string{categories[c]}})
	}
	if i%50 == 7 {
		fm = append(fm, field{"draft", true})
	}
	if i%211 == 3 {
		fm[2].value = future.Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
	}
	return fm
}

func (g *gen) tags() []string {
	k := g.r.IntN(5)
	perm := g.r.Perm(len(tagWords))
	out := make([]string, k)
	for j := range k {
		out[j] = tagWords[perm[j]]
	}
	return out
}
