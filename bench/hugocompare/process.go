package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// A process is the folio binary running a command (serve or dev) in a
// site's folder, as a new user runs it there: no flag but the address.
type process struct {
	proxy
	cmd  *exec.Cmd
	log  strings.Builder // what it printed
	done chan struct{}
}

// A proxy asks the server at base for each request's path and copies
// its answer: an http.Handler to siteoracle.Answers, as folio's server
// is.
type proxy struct {
	base   *url.URL // where it serves
	client *http.Client
}

var servingLine = regexp.MustCompile(`^folio: serving (http://127\.0\.0\.1:[0-9]+/) `)

// start runs bin's command in dir on a free loopback port and waits (up
// to a minute) for its "folio: serving" line.
func start(bin, command, dir string) (*process, error) {
	p := &process{done: make(chan struct{})}
	p.cmd = exec.Command(bin, command, "--addr", "127.0.0.1:0")
	p.cmd.Dir = dir
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	p.cmd.Stdout = io.Discard
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan string, 1)
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if p.log.Len() < 64<<10 {
				p.log.WriteString(line + "\n")
			}
			if m := servingLine.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case base := <-found:
		p.base, _ = url.Parse(base)
	case <-p.done:
		p.stop()
		return nil, fmt.Errorf("folio %s exited before serving:\n%s", command, p.log.String())
	case <-time.After(time.Minute):
		p.stop()
		return nil, fmt.Errorf("folio %s did not serve within a minute:\n%s", command, p.log.String())
	}
	p.client = noRedirects()
	return p, nil
}

// ServeHTTP asks the server for r's path and copies its answer.
func (p proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u := *p.base
	u.Path, u.RawPath, u.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
	req, err := http.NewRequestWithContext(context.Background(), r.Method, u.String(), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header = r.Header.Clone()
	resp, err := p.client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// stop ends the process with SIGTERM (its drain), then SIGKILL.
func (p *process) stop() {
	if p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
	if err := p.cmd.Wait(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			fmt.Fprintln(os.Stderr, "hugocompare:", err)
		}
	}
}
