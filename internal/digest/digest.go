// Package digest writes Go values into a hash deterministically, so that
// two values hash alike exactly when they hold the same data: every field
// of a struct (unexported ones too) by name, maps in the order of their
// keys' digests, pointers by what they point to (once per value, so
// cycles end), times by instant and zone. folio build uses it to tell
// whether what a page is made from changed since the previous build.
//
// Functions, channels and the sync types hold no data that output is made
// from; they are written as their kind alone. Skip leaves out chosen
// fields (a post's body, hashed apart; a per-process hash).
package digest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"io"
	"math"
	"reflect"
	"slices"
	"time"
	"unsafe"
)

// A Skip reports whether the field of struct type t is left out.
type Skip func(t reflect.Type, field string) bool

// Write writes v into h.
func Write(h hash.Hash, v any, skip Skip) {
	w := &writer{h: h, skip: skip, seen: map[visit]bool{}}
	w.value(reflect.ValueOf(v))
	w.flush()
}

// Sum is the SHA-256 of v as Write writes it.
func Sum(v any, skip Skip) [sha256.Size]byte {
	h := sha256.New()
	Write(h, v, skip)
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// A Stream writes many values into one hash, one after another, each
// as Write writes it, with one buffer for all: for many small values.
// Flush before reading the hash.
type Stream struct{ w writer }

// NewStream is a Stream into h, leaving out what skip says.
func NewStream(h hash.Hash, skip Skip) *Stream {
	return &Stream{w: writer{h: h, skip: skip, seen: map[visit]bool{}}}
}

// Value writes v as Write does.
func (s *Stream) Value(v any) {
	clear(s.w.seen)
	s.w.value(reflect.ValueOf(v))
}

// String writes str's length, then its bytes.
func (s *Stream) String(str string) { s.w.string(str) }

// Uint writes u in eight bytes.
func (s *Stream) Uint(u uint64) { s.w.uint(u) }

// Flush writes what is buffered into the hash.
func (s *Stream) Flush() { s.w.flush() }

type visit struct {
	ptr uintptr
	typ reflect.Type
}

type writer struct {
	h    hash.Hash
	skip Skip
	seen map[visit]bool
	buf  []byte // written to h in large pieces
}

func (w *writer) write(b []byte) {
	if len(w.buf)+len(b) > 64<<10 {
		w.flush()
		if len(b) > 64<<10 {
			w.h.Write(b)
			return
		}
	}
	w.buf = append(w.buf, b...)
}

func (w *writer) flush() {
	w.h.Write(w.buf)
	w.buf = w.buf[:0]
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	locationType = reflect.TypeFor[time.Location]()
)

func (w *writer) uint(u uint64) {
	if len(w.buf)+8 > 64<<10 {
		w.flush()
	}
	w.buf = binary.LittleEndian.AppendUint64(w.buf, u)
}

func (w *writer) string(s string) {
	w.uint(uint64(len(s)))
	if len(w.buf)+len(s) > 64<<10 {
		w.flush()
		if len(s) > 64<<10 {
			io.WriteString(w.h, s)
			return
		}
	}
	w.buf = append(w.buf, s...)
}

func (w *writer) value(v reflect.Value) {
	if !v.IsValid() {
		w.string("<nil>")
		return
	}
	t := v.Type()
	w.uint(uint64(v.Kind()))
	switch {
	case t == timeType && (v.CanInterface() || v.CanAddr()):
		var tm time.Time
		if v.CanInterface() {
			tm = v.Interface().(time.Time)
		} else {
			tm = *(*time.Time)(unsafe.Pointer(v.UnsafeAddr())) // an unexported field's
		}
		w.uint(uint64(tm.UnixNano()))
		w.string(tm.Location().String())
		return
	case t == locationType && v.CanAddr():
		// Its name says it; its fields include a cache filled as it is used.
		w.string((*time.Location)(unsafe.Pointer(v.UnsafeAddr())).String())
		return
	case t.PkgPath() == "sync" || t.PkgPath() == "sync/atomic":
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			w.uint(1)
		} else {
			w.uint(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.uint(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		w.uint(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		w.uint(math.Float64bits(real(c)))
		w.uint(math.Float64bits(imag(c)))
	case reflect.String:
		w.string(v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			w.string("<nil>")
			return
		}
		n := v.Len()
		w.uint(uint64(n))
		if t.Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
			w.write(v.Bytes())
			return
		}
		for i := range n {
			w.value(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			w.string("<nil>")
			return
		}
		type entry struct {
			key []byte
			val reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			var key []byte
			if k := it.Key(); k.Kind() == reflect.String {
				key = []byte(k.String()) // in order of the keys themselves
			} else {
				kw := &writer{h: sha256.New(), skip: w.skip, seen: map[visit]bool{}}
				kw.value(k)
				kw.flush()
				key = kw.h.Sum(nil)
			}
			entries = append(entries, entry{key, it.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
		w.uint(uint64(len(entries)))
		for _, e := range entries {
			w.uint(uint64(len(e.key)))
			w.write(e.key)
			w.value(e.val)
		}
	case reflect.Struct:
		// The type says which fields follow, in order: a field's name
		// would add nothing.
		w.string(t.String())
		for i := range t.NumField() {
			if w.skip != nil && w.skip(t, t.Field(i).Name) {
				continue
			}
			w.value(v.Field(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			w.string("<nil>")
			return
		}
		k := visit{v.Pointer(), t}
		if w.seen[k] {
			w.string("<seen>")
			return
		}
		w.seen[k] = true
		w.value(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			w.string("<nil>")
			return
		}
		w.string(v.Elem().Type().String())
		w.value(v.Elem())
	default: // Func, Chan, UnsafePointer: no data output is made from
	}
}
