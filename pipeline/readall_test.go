package pipeline

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAll reads whole files whatever the size hint (a file can grow
// between Stat and Read), in one allocation when the hint is right.
func TestReadAll(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 7000} {
		data := strings.Repeat("x", n)
		for _, hint := range []int64{1, int64(n) + 1, int64(n) * 3} {
			got, err := readAll(iotest.HalfReader(strings.NewReader(data)), hint)
			if err != nil || !bytes.Equal(got, []byte(data)) {
				t.Errorf("%d bytes, hint %d: got %d bytes, %v", n, hint, len(got), err)
			}
		}
		if got, _ := readAll(strings.NewReader(data), int64(n)+1); cap(got) != n+1 {
			t.Errorf("%d bytes with an exact hint: cap %d, want %d (no growing)", n, cap(got), n+1)
		}
	}
	if _, err := readAll(iotest.ErrReader(iotest.ErrTimeout), 10); err != iotest.ErrTimeout {
		t.Errorf("error = %v, want the reader's", err)
	}
}
