package digest

import (
	"bytes"
	"reflect"
	"testing"
	"time"
)

type inner struct {
	N    int
	when time.Time
}

type sample struct {
	Name  string
	Tags  []string
	M     map[string]any
	P     *inner
	Self  *sample
	skip  string
	Fn    func()
	Bytes []byte
}

// TestSum: equal data sums alike whatever the map order, pointer
// identity or monotonic clock; any changed field, element or key changes
// the sum; skipped fields do not count; cycles end.
func TestSum(t *testing.T) {
	loc := time.FixedZone("X", 3600)
	base := func() *sample {
		s := &sample{Name: "a", Tags: []string{"x", "y"}, M: map[string]any{"k": 1, "j": []any{"v", 2.5}},
			P: &inner{N: 3, when: time.Date(2020, 1, 2, 3, 4, 5, 0, loc)}, skip: "s", Bytes: []byte("b")}
		s.Self = s
		return s
	}
	skip := func(t reflect.Type, f string) bool { return t == reflect.TypeFor[sample]() && f == "skip" }
	want := Sum(base(), skip)
	same := []func(*sample){
		func(s *sample) { s.M = map[string]any{"j": []any{"v", 2.5}, "k": 1} },
		func(s *sample) { s.skip = "other" },
		func(s *sample) { s.Fn = func() {} },
		func(s *sample) { s.P.when = s.P.when.In(loc).Round(0) },
	}
	for i, change := range same {
		s := base()
		change(s)
		if Sum(s, skip) != want {
			t.Errorf("same %d: the sum changed", i)
		}
	}
	differ := []func(*sample){
		func(s *sample) { s.Name = "b" },
		func(s *sample) { s.Tags = []string{"x"} },
		func(s *sample) { s.Tags = []string{"xy"} },
		func(s *sample) { s.Tags = nil },
		func(s *sample) { s.M["k"] = 2 },
		func(s *sample) { s.M["k"] = "1" },
		func(s *sample) { s.M["l"] = 1 },
		func(s *sample) { s.P.N = 4 },
		func(s *sample) { s.P.when = s.P.when.Add(time.Nanosecond) },
		func(s *sample) { s.P.when = s.P.when.In(time.UTC) },
		func(s *sample) { s.P = nil },
		func(s *sample) { s.Bytes = []byte("c") },
	}
	for i, change := range differ {
		s := base()
		change(s)
		if Sum(s, skip) == want {
			t.Errorf("differ %d: the sum did not change", i)
		}
	}
	if Sum(base(), nil) == want {
		t.Error("an unskipped field does not count")
	}
}

// TestStream: a Stream of values writes the bytes Write writes of each,
// one after the other; a value seen in one is not "seen" in the next.
func TestStream(t *testing.T) {
	shared := &inner{N: 1}
	values := []any{&sample{Name: "a", P: shared}, &sample{Name: "b", P: shared, Tags: []string{"x"}}, 7, "text", map[string]any{"k": []any{1, "v"}}}
	var want, got bytes.Buffer
	for _, v := range values {
		Write(&hashBuffer{&want}, v, nil)
	}
	s := NewStream(&hashBuffer{&got}, nil)
	for _, v := range values {
		s.Value(v)
	}
	s.Flush()
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the stream wrote %d bytes unlike Write's %d", got.Len(), want.Len())
	}
}

// hashBuffer is a hash.Hash that keeps what is written.
type hashBuffer struct{ *bytes.Buffer }

func (hashBuffer) Sum(b []byte) []byte { return b }
func (hashBuffer) Size() int           { return 0 }
func (hashBuffer) BlockSize() int      { return 1 }
func (h hashBuffer) Reset()            { h.Buffer.Reset() }
