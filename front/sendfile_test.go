package front

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSendSection: a section of a file, partly read already, goes to a
// TCP connection through coalesceConn.ReadFrom whole and in order, after
// what was held, and the section is read to its end.
func TestSendSection(t *testing.T) {
	body := make([]byte, 300_000)
	for i := range body {
		body[i] = byte(i * 7)
	}
	path := filepath.Join(t.TempDir(), "body")
	if err := os.WriteFile(path, append([]byte("not this"), body...), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		b, _ := io.ReadAll(c)
		got <- b
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := &coalesceConn{Conn: raw}
	c.Write(full('h'))
	sr := io.NewSectionReader(f, 8, int64(len(body)))
	skip := make([]byte, 100)
	io.ReadFull(sr, skip)
	n, err := c.ReadFrom(sr)
	if err != nil || n != int64(len(body)-100) {
		t.Fatalf("ReadFrom: %d, %v; want %d", n, err, len(body)-100)
	}
	if rest, _ := io.ReadAll(sr); len(rest) != 0 {
		t.Errorf("%d bytes of the section left unread", len(rest))
	}
	c.Close()
	b := <-got
	want := append(full('h'), body[100:]...)
	if !bytes.Equal(b, want) {
		t.Errorf("received %d bytes, want %d as sent", len(b), len(want))
	}
}
