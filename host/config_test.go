package host

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestServedElsewhere: a loopback base URL is elsewhere unless the
// address served is on its port and answers loopback; a public one is a
// proxy's, never reported.
func TestServedElsewhere(t *testing.T) {
	addr := func(s string) net.Addr {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		base   string
		served net.Addr
		want   bool
	}{
		{"http://localhost:1313/", addr("127.0.0.1:8080"), true},
		{"http://localhost:8080/", addr("127.0.0.1:8080"), false},
		{"http://localhost:8080/", addr("0.0.0.0:8080"), false},
		{"http://127.0.0.1:8080/", addr("[::]:8080"), false},
		{"http://[::1]:8080/", addr("[::1]:8080"), false},
		{"http://127.0.0.2:8080/notes/", addr(":8080"), false},
		{"http://localhost/", addr("127.0.0.1:80"), false},
		{"http://localhost/", addr("127.0.0.1:8080"), true},
		{"https://localhost:8080/", addr("127.0.0.1:8080"), true},
		{"http://localhost:8080/", addr("192.0.2.7:8080"), true},
		{"http://localhost:8080/", nil, true},
		{"https://blog.example/", addr("127.0.0.1:8080"), false},
		{"http://192.0.2.7:8080/", addr("127.0.0.1:1313"), false},
		{"https://blog.example/", nil, false},
	} {
		if got := ServedElsewhere(tc.base, tc.served); got != tc.want {
			t.Errorf("ServedElsewhere(%q, %v) = %v, want %v", tc.base, tc.served, got, tc.want)
		}
	}
}

// TestReadConfigHostlessBase: a Hugo baseURL that is only a path is the
// address served, its path dropped as dev drops a full baseURL's (folio
// answers at the root of its address), in serve and in dev; a baseURL
// with a host stays in serve.
func TestReadConfigHostlessBase(t *testing.T) {
	addr, err := net.ResolveTCPAddr("tcp", "127.0.0.1:8080")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		config, want string
		dev          bool
	}{
		{"baseURL = '/'", "http://127.0.0.1:8080/", false},
		{"baseURL = '/blog/'", "http://127.0.0.1:8080/", false},
		{"baseURL = '/blog/'", "http://127.0.0.1:8080/", true},
		{"baseURL = 'https://example.org/blog/'", "https://example.org/blog/", false},
		{"baseURL = 'https://example.org/blog/'", "http://127.0.0.1:8080/", true},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte(tc.config), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := ReadConfig(Spec{Source: dir, Addr: addr, AddrIsBase: tc.dev})
		if err != nil {
			t.Fatalf("%s: %v", tc.config, err)
		}
		if cfg.BaseURL != tc.want {
			t.Errorf("%s: BaseURL %q, want %q", tc.config, cfg.BaseURL, tc.want)
		}
	}
}
