package main

import (
	"bufio"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// dialSSE reads folio dev's event stream; the channel gets nil for each
// reload event.
func dialSSE(url string) (<-chan error, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	events := make(chan error, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() == "event: reload" {
				events <- nil
			}
		}
		events <- errors.New("the event stream ended")
	}()
	return events, nil
}

// wsReloads is a minimal WebSocket client (RFC 6455) for Hugo's
// livereload endpoint: the handshake, the livereload hello, and text
// frames read until a "reload" command.
type wsReloads struct {
	conn   net.Conn
	events chan error
}

func dialLivereload(base string) (<-chan error, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	rand.Read(key)
	fmt.Fprintf(conn, "GET /livereload HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nOrigin: %s\r\n\r\n",
		u.Host, base64.StdEncoding.EncodeToString(key), base)
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, fmt.Errorf("livereload: %s", resp.Status)
	}
	w := &wsReloads{conn: conn, events: make(chan error, 100)}
	if err := w.send(1, []byte(`{"command":"hello","protocols":["http://livereload.com/protocols/official-7"]}`)); err != nil {
		return nil, err
	}
	go w.read(r)
	return w.events, nil
}

// send writes one masked frame (clients must mask).
func (w *wsReloads) send(opcode byte, payload []byte) error {
	if len(payload) > 125 {
		return errors.New("frame too long")
	}
	mask := make([]byte, 4)
	rand.Read(mask)
	frame := []byte{0x80 | opcode, 0x80 | byte(len(payload))}
	frame = append(frame, mask...)
	for i, b := range payload {
		frame = append(frame, b^mask[i%4])
	}
	_, err := w.conn.Write(frame)
	return err
}

func (w *wsReloads) read(r *bufio.Reader) {
	for {
		opcode, payload, err := readFrame(r)
		if err != nil {
			w.events <- err
			return
		}
		switch opcode {
		case 1: // text
			if strings.Contains(string(payload), `"command":"reload"`) {
				w.events <- nil
			}
		case 8:
			w.events <- errors.New("livereload closed")
			return
		case 9: // ping
			if len(payload) <= 125 {
				w.send(10, payload)
			}
		}
	}
}

// readFrame reads one unmasked server frame (fragments are not expected
// from livereload and are returned as they come).
func readFrame(r *bufio.Reader) (byte, []byte, error) {
	var head [2]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := uint64(head[1] & 0x7f)
	switch n {
	case 126:
		var ext [2]byte
		if _, err := io.ReadFull(r, ext[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(ext[:]))
	case 127:
		var ext [8]byte
		if _, err := io.ReadFull(r, ext[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(ext[:])
	}
	if n > 1<<20 {
		return 0, nil, errors.New("frame too large")
	}
	payload := make([]byte, n)
	_, err := io.ReadFull(r, payload)
	return head[0] & 0x0f, payload, err
}

// next waits for the next reload message.
func next(events <-chan error, timeout time.Duration) error {
	select {
	case err := <-events:
		return err
	case <-time.After(timeout):
		return errors.New("no reload message")
	}
}

// drain drops reload messages already received (a server may send more
// than one per change), so that the next edit waits for its own.
func drain(events <-chan error) {
	for {
		select {
		case <-events:
		default:
			return
		}
	}
}
