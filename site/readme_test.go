package site_test

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReadmeExamples runs the README's JavaScript examples as a reader
// would, on the sample blog (../content), and compares what they print with
// the output the README shows under each. Examples are the fenced block
// after a "<!-- readme-test: KIND -->" line; the next fenced block is their
// output. KIND is "node" (a shell script, run in an empty folder, with the
// README's http://127.0.0.1:8080/ replaced by the test server's address) or
// "browser" (run in the DevTools console of the blog's /blog/ page;
// "browser webmcp" with Chromium's WebMCP testing feature).
func TestReadmeExamples(t *testing.T) {
	examples := readmeExamples(t, "../README.md")
	if len(examples) < 3 {
		t.Fatalf("found %d README examples, want at least 3", len(examples))
	}
	base := startSite(t, "../config.toml")
	for _, ex := range examples {
		t.Run(ex.kind, func(t *testing.T) {
			var got string
			switch {
			case ex.kind == "node":
				got = runShellExample(t, ex.code, base)
			case strings.HasPrefix(ex.kind, "browser"):
				got = runBrowserExample(t, ex, base)
			default:
				t.Fatalf("unknown example kind %q", ex.kind)
			}
			if strings.TrimSpace(got) != strings.TrimSpace(ex.output) {
				t.Errorf("README example at line %d printed\n%s\nthe README shows\n%s", ex.line, got, ex.output)
			}
		})
	}
}

type readmeExample struct {
	kind, code, output string
	line               int
}

// readmeExamples reads the marked examples and their outputs.
func readmeExamples(t *testing.T, name string) []readmeExample {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		out   []readmeExample
		cur   *readmeExample
		block *strings.Builder
		n     int
		field int // 0: code next, 1: output next
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case block != nil && strings.HasPrefix(line, "```"):
			if field == 0 {
				cur.code = block.String()
			} else {
				cur.output = block.String()
				out = append(out, *cur)
				cur = nil
			}
			field++
			block = nil
		case block != nil:
			block.WriteString(line + "\n")
		case strings.HasPrefix(line, "<!-- readme-test: "):
			cur = &readmeExample{kind: strings.TrimSuffix(strings.TrimPrefix(line, "<!-- readme-test: "), " -->"), line: n}
			field = 0
		case cur != nil && strings.HasPrefix(line, "```"):
			block = &strings.Builder{}
		}
	}
	if cur != nil {
		t.Fatalf("README line %d: an example without its output block", cur.line)
	}
	return out
}

func runShellExample(t *testing.T, code, base string) string {
	tool(t, "node", "nodejs")
	tool(t, "curl")
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.ReplaceAll(code, "http://127.0.0.1:8080/", base))
	cmd.Dir = t.TempDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr.String())
	}
	return strings.ReplaceAll(string(out), base, "http://127.0.0.1:8080/")
}

// runBrowserExample runs code as the console would (top-level await
// allowed) and returns what it logged.
func runBrowserExample(t *testing.T, ex readmeExample, base string) string {
	var features []string
	ready := "true"
	if strings.Contains(ex.kind, "webmcp") {
		features = append(features, "WebMCPTesting")
		// The reader runs it after the page has loaded: wait for the tool.
		ready = `(async () => { const mc = document.modelContext ?? navigator.modelContext;
			for (let i = 0; i < 200; i++) { if (mc && (await mc.getTools()).some((t) => t.name === "search_blog_posts")) return true;
			await new Promise((r) => setTimeout(r, 25)); } return false; })()`
	}
	b := newBrowser(t, features...)
	var ok bool
	var got string
	tab := b.Open(base + "blog/")
	tab.MustEval(ready, &ok)
	if !ok {
		t.Fatal("the page never registered search_blog_posts")
	}
	tab.MustEval(`(async () => { const out = []; const log = console.log;
		console.log = (...a) => out.push(a.map(String).join(" "));
		try {
`+ex.code+`
		} finally { console.log = log; }
		return out.join("\n"); })()`, &got)
	b.CheckNoErrors(t)
	return got
}
