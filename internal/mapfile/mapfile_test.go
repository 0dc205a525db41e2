package mapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestMap(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	want := bytes.Repeat([]byte("folio "), 3000) // past one page
	if err := os.WriteFile(name, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		size int64
		ok   bool
	}{
		{0, false},
		{-1, false},
		{int64(len(want)), runtime.GOOS == "linux"},
		{10, runtime.GOOS == "linux"},
	} {
		got, ok := Map(f, tc.size)
		if ok != tc.ok {
			t.Errorf("size %d: mapped %v, want %v", tc.size, ok, tc.ok)
			continue
		}
		if ok && !bytes.Equal(got, want[:tc.size]) {
			t.Errorf("size %d: the mapping holds other bytes than the file's", tc.size)
		}
	}
}
