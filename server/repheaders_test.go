package server

import (
	"net/http"
	"testing"
	"time"
)

// A prepared answer's header values are one object for the collector,
// not one per value, and each is a full slice: a handler that adds to
// one (Header.Add) gets a copy and changes no other value.
func TestPreparedHeadersShareOneArray(t *testing.T) {
	lm := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Format(http.TimeFormat)
	if n := testing.AllocsPerRun(100, func() { prepareHeaders("text/html", `"x"`, lm, 42, "gzip") }); n != 1 {
		t.Errorf("prepareHeaders allocates %v times, want 1", n)
	}
	h := prepareHeaders("text/html", `"x"`, lm, 1234, "gzip")
	for name, v := range map[string][]string{"ctype": h.ctype, "etag": h.etag, "length": h.length, "lastModified": h.lastModified, "coding": h.coding} {
		if len(v) != 1 || cap(v) != 1 {
			t.Errorf("%s = %q, cap %d: want one value, capacity one", name, v, cap(v))
		}
	}
	hd := http.Header{"Content-Type": h.ctype}
	hd.Add("Content-Type", "text/plain")
	if got := [5]string{h.ctype[0], h.etag[0], h.length[0], h.lastModified[0], h.coding[0]}; got != [5]string{"text/html", `"x"`, "1234", lm, "gzip"} {
		t.Errorf("values after an Add = %q", got)
	}
	if h := prepareHeaders("text/html", `"x"`, "", 1, ""); h.lastModified != nil || h.coding != nil {
		t.Errorf("lastModified %q, coding %q: want none", h.lastModified, h.coding)
	}
}
