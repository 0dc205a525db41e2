package export

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// manifestSite is a site whose files hold every shape of header set
// and record the manifest keeps.
func manifestSite() *Site {
	sum := func(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }
	return &Site{Files: []File{
		{Path: "/", Name: "index.html", Status: 200, Size: 10, Header: http.Header{"Etag": {`"a"`}, "Vary": {"Accept", "Accept-Encoding"}},
			Gzip: true, GzipETag: `"a-gz"`, sum: sum("a"), mod: 1_700_000_000_123_456_789, change: 1_700_000_001_000_000_007,
			gz: gzipFile{sum: sum("agz"), size: 7, mod: -5, change: 9}, fingerprint: sum("fp"), hasFingerprint: true, fpPosts: true},
		{Path: "/blog/x/", Name: "blog/x/index.html", Status: 200, Size: 3, fingerprint: sum("x"), hasFingerprint: true, fpPost: "blog/x.md",
			Header:   http.Header{"Link": {"<x>; rel=alternate", ""}, "X-Empty": {}, "X-Nil": nil, "Vary": {"Accept"}},
			Markdown: "/blog/x.md", MarkdownHeader: http.Header{"Vary": {"Accept"}, "Etag": {`"md"`}},
			sum: sum("x"), mdSum: sum("xmd")},
		{Path: "/404.html", Name: "404.html", Status: 404, Header: http.Header{}},
		{Path: "/odd", Name: "odd", Status: 200, Header: http.Header{"X-A": {"a\x00b", "c"}, "X-B": {"a", "b\x00c"}}},
		{Path: "/none", Name: "none", Status: 200},
	}, shape: &[sha256.Size]byte{1, 2, 3}}
}

// TestManifestRoundTrip: what a manifest records comes back as it was,
// the site's shape with it, written whole, in its parts, or streamed
// (startRecord, finish).
func TestManifestRoundTrip(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	site := manifestSite()
	dirs := folderTimes{"": 5, "blog": 0, "blog/x": -3}
	whole := encodeManifest(manifestFormat, site, dirs)
	if err := writeManifest(out, encodeRoutes(site).parts(manifestFormat, dirs, site.shape)...); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(manifestPath(out)); err != nil || !bytes.Equal(data, whole) {
		t.Fatalf("the manifest written in parts is not the one encoded whole (%v)", err)
	}
	streamed := filepath.Join(t.TempDir(), "public")
	if err := startRecord(streamed, manifestFormat, site).finish(streamed, manifestFormat, dirs, site.shape, nil); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(manifestPath(streamed)); err != nil || !bytes.Equal(data, whole) {
		t.Fatalf("the manifest streamed is not the one encoded whole (%v)", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(streamed), ".*tmp-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	got, gotDirs, shape := readManifest(out, manifestFormat)
	if shape == nil || *shape != *site.shape {
		t.Errorf("the shape came back as %v, want %v", shape, site.shape)
	}
	if _, _, shape := decodeManifest(encodeManifest(manifestFormat, &Site{Files: site.Files}, nil), manifestFormat); shape != nil {
		t.Errorf("a site without a shape: %v recorded", shape)
	}
	if !reflect.DeepEqual(gotDirs, dirs) {
		t.Errorf("folder times came back as %v, want %v", gotDirs, dirs)
	}
	if len(got) != len(site.Files) {
		t.Fatalf("%d routes read, want %d", len(got), len(site.Files))
	}
	for _, f := range site.Files {
		r := got[f.Path]
		if r == nil {
			t.Fatalf("%s: not read", f.Path)
		}
		want := manifestRoute{File: f, Sum: f.sum, MarkdownSum: f.mdSum, Fingerprint: f.fingerprint, HasFingerprint: f.hasFingerprint,
			FingerprintPost: f.fpPost, FingerprintPosts: f.fpPosts, Size: int64(f.Size), Mod: f.mod, Change: f.change}
		want.File.sum, want.File.mdSum, want.File.fingerprint, want.File.hasFingerprint, want.File.mod, want.File.change, want.File.gz = [32]byte{}, [32]byte{}, [32]byte{}, false, 0, 0, gzipFile{}
		want.File.fpPost, want.File.fpPosts = "", false
		if f.Gzip {
			want.GzipSum, want.GzipSize, want.GzipMod, want.GzipChange = f.gz.sum, f.gz.size, f.gz.mod, f.gz.change
		}
		if r.raw == "" || r.table == nil {
			t.Errorf("%s: its encoding is not kept", f.Path)
		}
		if r.hasMD != (f.MarkdownHeader != nil) {
			t.Errorf("%s: hasMD %v, want %v", f.Path, r.hasMD, f.MarkdownHeader != nil)
		}
		r.headers()
		g := *r
		g.raw, g.rawOff, g.table, g.hdrOff, g.hasMD, g.decoded, g.index = "", 0, nil, 0, false, false, 0
		if !reflect.DeepEqual(g, want) {
			t.Errorf("%s came back as\n%#v\nwant\n%#v", f.Path, g, want)
		}
	}
	if r, _, _ := readManifest(out, manifestFormat+" nogzip"); r != nil {
		t.Error("a manifest of another format is read")
	}
}

// TestManifestRefused: a manifest cut short, corrupt or of another
// program is not read (the build is cold), without a panic.
func TestManifestRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	good := encodeManifest(manifestFormat, manifestSite(), folderTimes{"": 1, "blog": 2})
	flipped := slices.Clone(good)
	flipped[len(flipped)-3] ^= 1
	for name, data := range map[string][]byte{
		"empty":           {},
		"the format only": []byte(manifestFormat + "\n"),
		"cut short":       good[:len(good)-1],
		"a byte wrong":    flipped,
		"gob, as before":  append([]byte("\x1e\xff\x81\x03\x01\x01\x0cmanifestHead"), good[20:]...),
		"longer":          append(slices.Clone(good), 0),
	} {
		if err := os.WriteFile(manifestPath(out), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if r, dirs, _ := readManifest(out, manifestFormat); r != nil || dirs != nil {
			t.Errorf("%s: read", name)
		}
	}
	// Every entry number and length is checked: a payload of any bytes,
	// under a CRC that holds, reads as nothing or as something, never
	// a panic.
	head := len(manifestFormat) + 1 + manifestHeadSize
	for i := head; i < len(good); i++ {
		for _, b := range []byte{0, 0x7f, 0xff} {
			data := slices.Clone(good)
			data[i] = b
			fixCRC(data, head)
			decodeManifest(data, manifestFormat)
		}
	}
}

// fixCRC makes a manifest's CRC that of its payload.
func fixCRC(data []byte, head int) {
	crc := crcOf(data[head:])
	at := head - 4
	data[at], data[at+1], data[at+2], data[at+3] = byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24)
}

func crcOf(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// TestManifestKeptRoutes: a record written over a previous one, its kept
// routes copied as they were encoded and its table carried over, reads
// as the record of the same files written afresh; the entries no route
// uses any more are dropped once they are a fifth of the table.
func TestManifestKeptRoutes(t *testing.T) {
	prev := manifestSite()
	data := encodeManifest(manifestFormat, prev, nil)
	entries := -1 // the previous record's header entries
	for round := range 20 {
		routes, _, _ := decodeManifest(data, manifestFormat)
		if routes == nil {
			t.Fatalf("round %d: the record does not read", round)
		}
		// The next build keeps every route but "/", whose answer changed.
		next := &Site{}
		for _, f := range prev.Files {
			r := routes[f.Path]
			if f.Path == "/" {
				f.Header = http.Header{"Etag": {fmt.Sprintf(`"a%d"`, round)}, "Vary": {"Accept", "Accept-Encoding"}}
				f.mod++
				f.change += 2
				f.was = r // asked again (writeOne)
			} else {
				f = File{Path: f.Path, fingerprint: r.Fingerprint, fpPost: r.FingerprintPost, fpPosts: r.FingerprintPosts, hasFingerprint: r.HasFingerprint}
				f.reuse(r)
				f.Markdown = r.Markdown // linkMarkdown
			}
			next.Files = append(next.Files, f)
		}
		data = encodeManifest(manifestFormat, next, nil)
		fresh := slices.Clone(next.Files)
		for i := range fresh {
			fresh[i].fillHeaders()
			fresh[i].kept = nil
		}
		want, _, _ := decodeManifest(encodeManifest(manifestFormat, &Site{Files: fresh}, nil), manifestFormat)
		got, _, _ := decodeManifest(data, manifestFormat)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d routes, want %d", round, len(got), len(want))
		}
		var table *recordTable
		for path, w := range want {
			got[path].headers()
			w.headers()
			g := *got[path]
			table = g.table
			w := *w
			g.raw, g.rawOff, g.table, w.raw, w.rawOff, w.table = "", 0, nil, "", 0, nil
			g.hdrOff, g.decoded, w.hdrOff, w.decoded = 0, false, 0, false
			g.index, w.index = 0, 0
			if !reflect.DeepEqual(g, w) {
				t.Errorf("round %d: %s came back as\n%#v\nwant\n%#v", round, path, g, w)
			}
		}
		if garbage := len(table.entries) - table.live; float64(garbage) > maxGarbage*float64(len(table.entries))+1 {
			t.Errorf("round %d: %d of %d header entries unused", round, garbage, len(table.entries))
		}
		// The route asked again takes its previous entries but the ETag.
		if entries >= 0 && len(table.entries) > entries+1 {
			t.Errorf("round %d: %d header entries after %d, want at most one more", round, len(table.entries), entries)
		}
		entries = len(table.entries)
		prev = next
	}
}

// TestPackHeaders: a header set packed and unpacked is the same set,
// nil and empty values and a nil set included, whether its entries are
// numbered in the table or written out.
func TestPackHeaders(t *testing.T) {
	var tab headerTable
	sets := []http.Header{
		nil,
		{},
		{"Etag": {`"a"`}, "Vary": {"Accept", "Accept-Encoding"}, "Content-Length": {"10"}},
		{"Link": {"<x>; rel=alternate", ""}, "X-Empty": {}, "X-Nil": nil, "Vary": {"Accept"}},
		{"X-A": {"a\x00b", "c"}, "X-B": {"a", "b\x00c"}, "Etag": nil, "Location": {}},
		{"Vary": {"Accept"}, "Content-Type": {"text/html; charset=utf-8"}},
	}
	packed := make([]string, len(sets))
	for i, h := range sets {
		packed[i] = tab.pack(h)
	}
	for i, h := range sets {
		got := tab.unpack(packed[i])
		if (got == nil) != (h == nil) || len(got) != len(h) {
			t.Errorf("set %d: unpacked %#v, want %#v", i, got, h)
			continue
		}
		for k, vs := range h {
			g, ok := got[k]
			if !ok || (g == nil) != (vs == nil) || !slices.Equal(g, vs) {
				t.Errorf("set %d: %s unpacked as %#v, want %#v", i, k, g, vs)
			}
		}
	}
	if n := len(tab.entries); n != 7 { // two Vary sets, X-Empty, X-Nil, X-A, X-B, Content-Type
		t.Errorf("the table numbers %d entries, want 7: %v", n, tab.entries)
	}
	f := &File{Header: sets[2], MarkdownHeader: sets[3]}
	tab.packHeaders(f)
	if f.Header != nil || f.MarkdownHeader != nil || !f.hasMarkdown() || !f.Negotiates() {
		t.Errorf("packed: Header %v, MarkdownHeader %v, hasMarkdown %v, Negotiates %v", f.Header, f.MarkdownHeader, f.hasMarkdown(), f.Negotiates())
	}
	f.fillHeaders()
	if f.Header.Get("Etag") != `"a"` || f.MarkdownHeader.Get("Link") != "<x>; rel=alternate" || f.packed != nil {
		t.Errorf("filled: %v, %v", f.Header, f.MarkdownHeader)
	}
}
