package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
)

// TestWriteBodyFromFile: a large body is sent from its memfd, the same
// bytes on every request (the file's offset never moves), and a small
// one gets no file.
func TestWriteBodyFromFile(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 20_000) // 320,000 bytes
	file := newBodyFile(len(body))
	if file == nil || newBodyFile(sendfileMin-1) != nil {
		t.Fatal("newBodyFile: a file only from sendfileMin bytes")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
		w.WriteHeader(http.StatusOK)
		writeBody(w, body, file)
	}))
	defer srv.Close()
	for i := range 3 {
		res, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || !bytes.Equal(got, body) {
			t.Fatalf("request %d: %d bytes, %v; want the %d of the body", i, len(got), err, len(body))
		}
	}
	if runtime.GOOS == "linux" {
		if file.f == nil {
			t.Fatal("no memfd made on Linux")
		}
		b, err := io.ReadAll(io.NewSectionReader(file.f, 0, int64(len(body))+1))
		if err != nil || !bytes.Equal(b, body) {
			t.Errorf("the memfd holds %d bytes, %v", len(b), err)
		}
		if _, err := file.f.WriteAt([]byte("x"), 0); err == nil {
			t.Error("the memfd can still be written")
		}
	}
}
