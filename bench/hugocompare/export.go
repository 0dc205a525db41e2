package main

import (
	"bytes"
	"fmt"
	"html"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"folio/internal/hugotest"
	"folio/internal/nginxtest"
	"folio/internal/siteoracle"
	"folio/pipeline"
)

// build runs folio build in the site's folder, as an author deploying
// the site runs it (--out and --nginx put its output in work), and
// compares the export with Hugo's production output twice: its files
// alone, as a static host without folio's config serves them (every
// page, its Markdown twin, feed and file, and an alias page at every
// alias), and
// the export served by nginx with the config folio build wrote, asked
// over HTTP for every URL as folio serve is.
func (c comparer) build(site string, hugo map[string]hugotest.Output, hugoOut, work, base string) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	out, conf := filepath.Join(work, "export"), filepath.Join(work, "nginx", "site.conf")
	if err := os.MkdirAll(filepath.Dir(conf), 0o755); err != nil {
		return err
	}
	cmd := exec.Command(c.folio, "build", "--out", out, "--nginx", conf, "--addr", addr)
	cmd.Dir = site
	if msg, err := cmd.CombinedOutput(); err != nil {
		// A site folio build refuses is a finding, not a failure of
		// the comparison: the lines say what it refused.
		fmt.Printf("  folio build in the site's folder: %v\n", err)
		c.print(strings.Split(strings.TrimSpace(string(msg)), "\n"))
		return nil
	}
	r := staticAnswers(hugo, hugoOut, out)
	fmt.Printf("  folio build's files (a static host, no config): %s\n", r.Summary())
	c.print(r.Diffs)
	stop, err := startNginx(conf, addr, filepath.Join(work, "nginx"))
	if err != nil {
		return err
	}
	defer stop()
	u, _ := url.Parse("http://" + addr + "/")
	p := proxy{base: u, client: noRedirects()}
	a := siteoracle.Answers(p, hugo, hugoOut, base)
	fmt.Printf("  folio build served by nginx with its config: %s\n", a.Summary())
	c.print(a.Diffs)
	return nil
}

// staticAnswers checks Hugo's URLs against the export's files in out as a
// static host maps them (/x/ to x/index.html): a page is an HTML file
// with its Markdown twin beside it, a feed an RSS file, an alias an
// HTML page whose refresh goes to Hugo's target, a file Hugo's bytes.
func staticAnswers(hugo map[string]hugotest.Output, hugoOut, out string) hugotest.Report {
	r := hugotest.Report{Classes: map[string][2]int{}, Others: map[string]int{}}
	for _, p := range slices.Sorted(maps.Keys(hugo)) {
		o := hugo[p]
		if o.Class == "asset" {
			o.Class = "file" // as Answers: content's image, or Hugo Pipes'
			if staticAnswer(o, hugoOut, out) != "" {
				o.Class = "pipes"
			}
		}
		if slices.Contains(hugotest.NotFolios, o.Class) {
			r.Others[o.Class]++
			continue
		}
		r.Add(o.Class, staticAnswer(o, hugoOut, out))
	}
	return r
}

// staticAnswer is "" when the export's files hold Hugo's output o as a
// static host serves it, else what is wrong.
func staticAnswer(o hugotest.Output, hugoOut, out string) string {
	file := strings.TrimPrefix(o.Path, "/")
	if file == "" || strings.HasSuffix(file, "/") {
		file += "index.html"
	}
	data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(file)))
	if err != nil {
		return fmt.Sprintf("%s %s: no file %s in the export", o.Class, o.Path, file)
	}
	switch o.Class {
	case "page":
		if !bytes.HasPrefix(bytes.ToLower(data[:min(len(data), 15)]), []byte("<!doctype html")) {
			return fmt.Sprintf("page %s: %s is not an HTML page", o.Path, file)
		}
		twin := strings.TrimPrefix(pipeline.TwinPath(o.Path), "/")
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(twin))); err != nil {
			return fmt.Sprintf("page %s: no Markdown twin %s in the export", o.Path, twin)
		}
	case "feed":
		if !bytes.Contains(data, []byte("<rss")) {
			return fmt.Sprintf("feed %s: %s is not RSS", o.Path, file)
		}
	case "alias":
		m := refresh.FindSubmatch(data)
		if m == nil {
			return fmt.Sprintf("alias %s: %s is no alias page", o.Path, file)
		}
		u, err := url.Parse(html.UnescapeString(string(m[1])))
		if err != nil {
			return fmt.Sprintf("alias %s: %s goes to %q: %v", o.Path, file, m[1], err)
		}
		target, _ := url.PathUnescape(u.EscapedPath())
		if strings.TrimSuffix(target, "index.html") != strings.TrimSuffix(o.Target, "index.html") {
			return fmt.Sprintf("alias %s: %s goes to %s, Hugo's to %s", o.Path, file, target, o.Target)
		}
	default:
		want, err := os.ReadFile(filepath.Join(hugoOut, filepath.FromSlash(file)))
		if err != nil {
			return fmt.Sprintf("%s %s: %v", o.Class, o.Path, err)
		}
		if !bytes.Equal(data, want) {
			return fmt.Sprintf("%s %s: %s has %d bytes (Hugo's: %d)", o.Class, o.Path, file, len(data), len(want))
		}
	}
	return ""
}

// refresh is an alias page's meta refresh and where it sends the
// browser (HTML-escaped).
var refresh = regexp.MustCompile(`<meta http-equiv="refresh" content="0; url=([^"]+)"`)

// startNginx runs nginx in the foreground with include (the http-context
// file folio build --nginx wrote, listening on addr) under prefix, and
// returns once it answers; stop ends it.
func startNginx(include, addr, prefix string) (stop func(), err error) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		return nil, err
	}
	module := nginxtest.JSModule()
	if module == "" {
		return nil, fmt.Errorf("the nginx njs module is not installed")
	}
	conf := nginxtest.Config(module, prefix, include, 0)
	file := filepath.Join(prefix, "nginx.conf")
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-p", prefix, "-c", file, "-e", "stderr")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop = func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("nginx exited: %v\n%s", err, log.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("nginx does not answer on %s", addr)
		}
	}
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func noRedirects() *http.Client {
	return &http.Client{
		Timeout:       time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
