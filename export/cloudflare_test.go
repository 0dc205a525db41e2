package export

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fakeRefusals = []Refusal{
	{Prefix: "/api/", CORS: true, Problem: true},
	{Prefix: "/", Suffix: ".json", Problem: true},
	{Prefix: "/"},
}

// fakeCloudflare exports the fake site as --cloudflare does (no .gz
// twins) and makes its project.
func fakeCloudflare(t *testing.T, opts CloudflareOptions) (*Site, *CloudflareProject, error) {
	t.Helper()
	o := fakeOptions
	o.NoGzip = true
	root := filepath.Join(t.TempDir(), "public")
	site, err := Write(root, fakeSite{}, fakePaths, o)
	if err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(root, "*.gz"))
	if len(matches) > 0 {
		t.Errorf("NoGzip wrote %v", matches)
	}
	opts.NotFound, opts.Refusals = "/404.html", fakeRefusals
	p, err := Cloudflare(site, nil, opts)
	return site, p, err
}

// TestCloudflareGolden: the Worker's table of the fake site, and the
// Worker itself, which is the same for every site.
func TestCloudflareGolden(t *testing.T) {
	_, p, err := fakeCloudflare(t, CloudflareOptions{Name: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p.Worker, workerJS) {
		t.Error("the Worker differs from worker.js")
	}
	var pretty bytes.Buffer
	json.Indent(&pretty, p.Data, "", "  ")
	golden := filepath.Join("testdata", "cloudflare-site.json.golden")
	if *update {
		os.WriteFile(golden, pretty.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if pretty.String() != string(want) {
		t.Errorf("site.json changed; run go test ./export -run Golden -update and review the diff\n%s", pretty.String())
	}
}

// TestCloudflareDataIsData: whatever a path holds (quotes, backslashes,
// template syntax, line separators), it reaches the Worker as a JSON
// string, and the Worker's source is the same bytes.
func TestCloudflareDataIsData(t *testing.T) {
	nasty := "/blog/a%22b%5Cc%24%7Bd%7D%E2%80%A8e%60f%3Cscript%3E/"
	site := &Site{
		Files: []File{
			{Path: nasty, Name: "blog/a\"b\\c${d}\u2028e`f<script>/index.html", Status: 200, Size: 3,
				Header: http.Header{"Link": {"<https://example.org/x\u2028\"${y}</script>>; rel=\"alternate\""}}},
			{Path: "/404.html", Name: "404.html", Status: 404, Size: 1, Header: http.Header{}},
		},
		Redirects: []Answer{{Path: "/old%E2%80%A8/", Status: 301, Header: http.Header{"Location": {"https://example.org/blog/a%22b/"}}}},
	}
	p, err := Cloudflare(site, nil, CloudflareOptions{NotFound: "/404.html"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p.Worker, workerJS) {
		t.Fatal("the Worker's source depends on the site")
	}
	var d workerData
	if err := json.Unmarshal(p.Data, &d); err != nil {
		t.Fatal(err)
	}
	r, ok := d.Routes["/blog/a\"b\\c${d}\u2028e`f<script>/"]
	if !ok {
		t.Fatalf("no route for the decoded path; routes: %v", d.Routes)
	}
	if r.File != "/blog/a%22b%5Cc$%7Bd%7D%E2%80%A8e%60f%3Cscript%3E/index.html" {
		t.Errorf("file %q", r.File)
	}
	if _, ok := d.Routes["/old\u2028/"]; !ok {
		t.Error("no route for the redirect")
	}
	if bytes.Contains(p.Data, []byte("\u2028")) || bytes.Contains(p.Data, []byte("</script>")) {
		t.Error("site.json holds a raw U+2028 or </script>: encoding/json escapes both")
	}
}

// TestCloudflareLimits: a site over a plan's limits fails, naming it.
func TestCloudflareLimits(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		want   string
	}{
		{"files", Limits{Plan: "Tiny", Files: 3, FileBytes: 1 << 20, WorkerBytes: 1 << 20, WorkerRawBytes: 1 << 20, Memory: 1 << 30}, "exceed the Tiny limit of 3 static asset files per Worker version"},
		{"bytes per file", Limits{Plan: "Tiny", Files: 100, FileBytes: 1000, WorkerBytes: 1 << 20, WorkerRawBytes: 1 << 20, Memory: 1 << 30}, "over the limit of 1000 bytes (0 MiB) for one static asset file"},
		{"worker size", Limits{Plan: "Tiny", Files: 100, FileBytes: 1 << 20, WorkerBytes: 1000, WorkerRawBytes: 1 << 20, Memory: 1 << 30}, "over the Tiny limit of 0 MiB for a Worker's size"},
		{"worker before compression", Limits{Plan: "Tiny", Files: 100, FileBytes: 1 << 20, WorkerBytes: 1 << 20, WorkerRawBytes: 1000, Memory: 1 << 30}, "over the limit of 0 MiB for a Worker before compression"},
		{"memory", Limits{Plan: "Tiny", Files: 100, FileBytes: 1 << 20, WorkerBytes: 1 << 20, WorkerRawBytes: 1 << 20, Memory: memoryLeft + 1000}, "would take about 0 MB of memory once parsed, over what the limit of 32 MB for a Worker leaves"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := fakeCloudflare(t, CloudflareOptions{Limits: tc.limits})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if _, _, err := fakeCloudflare(t, CloudflareOptions{}); err != nil {
		t.Errorf("the free plan: %v", err)
	}
}

func TestReservedNames(t *testing.T) {
	paths := []string{"/", "/_headers", "/_redirects", "/.assetsignore", "/_worker.js", "/_worker.js/index.js",
		"/blog/_headers", "/_headers.txt", "/x/_worker.js", "/_redirects/", "/%5Fheaders"}
	got := strings.Join(ReservedNames(paths), " ")
	want := "/_headers /_redirects /.assetsignore /_worker.js /_worker.js/index.js /_redirects/ /%5Fheaders"
	if got != want {
		t.Errorf("ReservedNames = %s, want %s", got, want)
	}
}

// TestRoutingKey: the Worker looks paths up as the server's rows match
// them (server/match.go): segments decoded but for a slash or percent
// sign inside one.
func TestRoutingKey(t *testing.T) {
	for in, want := range map[string]string{
		"/":                        "/",
		"/blog/caf%C3%A9/":         "/blog/café/",
		"/blog/caf%c3%a9.md":       "/blog/café.md",
		"/a%2Fb/c":                 "/a%2Fb/c",
		"/a%25b":                   "/a%25b",
		"/%61pi/posts.json":        "/api/posts.json",
		"/static/a%20b.css":        "/static/a b.css",
		"/x%E2%80%A8y":             "/x\u2028y",
		"/.well-known/api-catalog": "/.well-known/api-catalog",
	} {
		got, err := routingKey(in)
		if err != nil || got != want {
			t.Errorf("routingKey(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"/%FF", "/%zz"} {
		if _, err := routingKey(bad); err == nil {
			t.Errorf("routingKey(%q): no error", bad)
		}
	}
}
