package reliability

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A remote is an http.Handler that forwards each request, as written, to
// a real server on loopback, so the crawls and checks written for the
// in-process handler run unchanged against the folio binary.
type remote struct {
	addr   string
	client *http.Client
}

func newRemote(addr string) *remote {
	return &remote{addr: addr, client: &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport:     &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4},
	}}
}

func (rm *remote) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	out, err := http.NewRequest(r.Method, "http://"+rm.addr+r.RequestURI, nil)
	if err != nil {
		http.Error(w, "bad test request: "+err.Error(), 599)
		return
	}
	out.Header = r.Header.Clone()
	out.Host = r.Host
	res, err := rm.client.Do(out)
	if err != nil {
		http.Error(w, "request failed: "+err.Error(), 599)
		return
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		if k != "Date" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(res.StatusCode)
	io.Copy(w, res.Body)
}

// A rawConn sends requests byte for byte over one TCP connection, so the
// request line reaches the server exactly as an attacker writes it (Go's
// client would clean or refuse it).
type rawConn struct {
	addr string
	conn net.Conn
	br   *bufio.Reader
}

func dialRaw(t testing.TB, addr string) *rawConn {
	t.Helper()
	rc := &rawConn{addr: addr}
	if err := rc.redial(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.conn.Close() })
	return rc
}

func (rc *rawConn) redial() error {
	if rc.conn != nil {
		rc.conn.Close()
	}
	c, err := net.DialTimeout("tcp", rc.addr, 5*time.Second)
	if err != nil {
		return err
	}
	rc.conn, rc.br = c, bufio.NewReader(c)
	return nil
}

// do sends "METHOD target HTTP/1.1" with the given header lines and reads
// the answer. A connection the server closed (after a 400, say) is
// dialled again for the next request.
func (rc *rawConn) do(t testing.TB, method, target string, lines ...string) answer {
	t.Helper()
	var b strings.Builder
	b.WriteString(method + " " + target + " HTTP/1.1\r\nHost: attacker.test\r\n")
	for _, l := range lines {
		b.WriteString(l + "\r\n")
	}
	b.WriteString("\r\n")
	for attempt := 0; ; attempt++ {
		rc.conn.SetDeadline(time.Now().Add(60 * time.Second))
		_, err := io.WriteString(rc.conn, b.String())
		var res *http.Response
		if err == nil {
			res, err = http.ReadResponse(rc.br, &http.Request{Method: method})
		}
		if err != nil {
			if attempt == 0 {
				if rc.redial() == nil {
					continue
				}
			}
			t.Fatalf("%s %q: %v", method, target, err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("%s %q: body: %v", method, target, err)
		}
		if res.Close {
			rc.redial()
		}
		return answer{status: res.StatusCode, header: res.Header, body: body, plain: body}
	}
}
