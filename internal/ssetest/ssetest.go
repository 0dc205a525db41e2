// Package ssetest reads a text/event-stream as a browser's EventSource
// does, for the tests of folio dev's live-reload stream.
package ssetest

import (
	"bufio"
	"io"
	"strings"
)

// Event is one Server-Sent Event as a browser dispatches it.
type Event struct{ ID, Event, Data string }

// Read parses r until it ends and sends each dispatched event to out:
// fields up to a blank line, comments ignored, events without data not
// dispatched, the last event ID kept from one event to the next.
func Read(r io.Reader, out chan<- Event) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var ev Event
	var data []string
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if data != nil {
				ev.Data = strings.Join(data, "\n")
				out <- ev
			}
			ev.Event, data = "", nil
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			ev.ID = value
		case "event":
			ev.Event = value
		case "data":
			data = append(data, value)
		}
	}
}
