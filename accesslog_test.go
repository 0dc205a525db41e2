package main

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

func TestAccessLog(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"status and body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte("hello"))
		}, `status=201 bytes=5 `},
		{"implicit 200", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("hi"))
			w.Write([]byte("!"))
		}, `status=200 bytes=3 `},
		{"nothing written", func(w http.ResponseWriter, r *http.Request) {}, `status=200 bytes=0 `},
		{"first status wins", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			w.WriteHeader(http.StatusOK)
		}, `status=404 bytes=0 `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := accessLog(tc.handler, slog.New(slog.NewTextHandler(&buf, nil)))
			req := httptest.NewRequest("GET", "/blog/x/?q=1", nil)
			req.RemoteAddr = "192.0.2.7:4321"
			h.ServeHTTP(httptest.NewRecorder(), req)
			line := regexp.MustCompile(`^time=\S+ level=INFO msg=request method=GET path=/blog/x/ ` +
				regexp.QuoteMeta(tc.want) + `duration=\S+ remote=192\.0\.2\.7:4321\n$`)
			if !line.MatchString(buf.String()) {
				t.Errorf("logged %q, want %s", buf.String(), line)
			}
		})
	}
}

// The recorder lets http.ResponseController reach the connection.
func TestAccessLogUnwrap(t *testing.T) {
	var flushed bool
	h := accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		flushed = http.NewResponseController(w).Flush() == nil
	}), slog.New(slog.DiscardHandler))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if !flushed {
		t.Error("Flush through the access log failed")
	}
}
