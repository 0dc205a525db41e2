// Command devbench measures a dev server's edit-to-reload time: it edits
// one post N times and times each edit from the write to
//
//   - the live-reload message: folio dev's SSE "reload" event, or Hugo's
//     livereload WebSocket "reload" command;
//   - the changed page being served with the new text (polled every 2 ms).
//
// Then it reads the server's resident memory from /proc. bench/dev.sh runs
// it against folio dev and hugo server on the same corpus.
//
//	devbench -kind folio|hugo -url http://127.0.0.1:PORT -page /blog/x/ -file content/blog/x.md -pid PID [-edits 50]
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	kind := flag.String("kind", "folio", "folio or hugo")
	base := flag.String("url", "", "the server's base URL, http://127.0.0.1:PORT")
	page := flag.String("page", "", "the edited post's page path")
	file := flag.String("file", "", "the edited post's file")
	pid := flag.Int("pid", 0, "the server's process id, for its memory")
	edits := flag.Int("edits", 50, "edits to time")
	pause := flag.Duration("pause", 300*time.Millisecond, "pause after each edit's page is served")
	flag.Parse()
	if err := run(*kind, strings.TrimSuffix(*base, "/"), *page, *file, *pid, *edits, *pause); err != nil {
		fmt.Fprintln(os.Stderr, "devbench:", err)
		os.Exit(1)
	}
}

func run(kind, base, page, file string, pid, edits int, pause time.Duration) error {
	orig, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	defer os.WriteFile(file, orig, 0o644)
	var reloads <-chan error
	switch kind {
	case "folio":
		reloads, err = dialSSE(base + "/_folio/events")
	case "hugo":
		reloads, err = dialLivereload(base)
	default:
		err = fmt.Errorf("unknown kind %q", kind)
	}
	if err != nil {
		return err
	}
	var toEvent, toPage []time.Duration
	for i := range edits + 1 {
		marker := fmt.Sprintf("Bench edit %d %d", i, time.Now().UnixNano())
		body := strings.Replace(string(orig), "BENCH-TITLE", marker, 1)
		drain(reloads)
		start := time.Now()
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			return err
		}
		if err := next(reloads, 30*time.Second); err != nil {
			return fmt.Errorf("edit %d: %w", i, err)
		}
		event := time.Since(start)
		if err := waitPage(base+page, marker, 30*time.Second); err != nil {
			return fmt.Errorf("edit %d: %w", i, err)
		}
		served := time.Since(start)
		if i > 0 { // the first edit warms up
			toEvent, toPage = append(toEvent, event), append(toPage, served)
		}
		time.Sleep(pause)
	}
	rss, hwm := memory(pid)
	fmt.Printf("%s edits=%d reload_median_ms=%.1f reload_p95_ms=%.1f page_median_ms=%.1f page_p95_ms=%.1f rss_mb=%d peak_rss_mb=%d\n",
		kind, edits, ms(quantile(toEvent, 0.5)), ms(quantile(toEvent, 0.95)),
		ms(quantile(toPage, 0.5)), ms(quantile(toPage, 0.95)), rss, hwm)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// quantile is the nearest-rank quantile.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}

// waitPage polls url until its body contains marker.
func waitPage(url, marker string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(b), marker) {
				return nil
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	return errors.New("the page never showed the edit")
}

// memory reads VmRSS and VmHWM (peak) of pid, in MB.
func memory(pid int) (rss, hwm int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		var kb int
		if n, _ := fmt.Sscanf(sc.Text(), "VmRSS: %d kB", &kb); n == 1 {
			rss = kb / 1024
		}
		if n, _ := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kb); n == 1 {
			hwm = kb / 1024
		}
	}
	return rss, hwm
}
