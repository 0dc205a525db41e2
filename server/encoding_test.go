package server

import "testing"

// TestPickEncoding: the coding with the highest q wins, ties go to br,
// then zstd, then gzip; identity's q does not compete (as with nginx's
// gzip_static, which serves the export), gzip;q=0 refuses gzip.
func TestPickEncoding(t *testing.T) {
	served := []encodedBody{{coding: "gzip"}, {coding: "br"}}
	tests := []struct {
		accept string
		want   string // "" for identity
	}{
		{"", ""},
		{"gzip", "gzip"},
		{"gzip, br", "br"},
		{"br;q=0.5, gzip", "gzip"},
		{"GZIP", "gzip"},
		{"gzip;q=0", ""},
		{"gzip;q=0, identity", ""},
		{"*", "br"},
		{"*;q=0", ""},
		{"*, gzip;q=0.2", "br"},
		{"gzip;q=0.5, identity;q=0.9", "gzip"},
		{"gzip;q=0.9, identity;q=0.5", "gzip"},
		{"gzip, identity", "gzip"}, // equal: compress
		{"identity", ""},
		{"identity;q=0, gzip;q=0.1", "gzip"},
		{"zstd", ""}, // not served
		{"gzip;q=bad", ""},
		{"deflate, gzip;q=0.3", "gzip"},
	}
	for _, tc := range tests {
		var header []string
		if tc.accept != "" {
			header = []string{tc.accept}
		}
		got := ""
		if e := pickEncoding(header, served); e != nil {
			got = e.coding
		}
		if got != tc.want {
			t.Errorf("Accept-Encoding %q: got %q, want %q", tc.accept, got, tc.want)
		}
	}
}
