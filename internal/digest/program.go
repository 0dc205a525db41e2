package digest

import (
	"crypto/rand"
	"crypto/sha256"
	"debug/elf"
	"io"
	"os"
	"strings"
	"sync"
)

// Program identifies the running program: a new build of folio may make
// other bytes of the same input. It is the Go build ID the go command
// wrote into the executable (goBuildID), which names the link's inputs
// and the linked bytes, else the executable's bytes hashed (hashing the
// 32 MB executable cost every build 0.03 s). When the executable cannot
// be read either, it is a value no other run has.
var Program = sync.OnceValue(func() (sum [sha256.Size]byte) {
	h := sha256.New()
	exe, err := os.Executable()
	if err == nil {
		if id, ok := goBuildID(exe); ok {
			io.WriteString(h, "go build ID\x00"+id)
			h.Sum(sum[:0])
			return sum
		}
		var f *os.File
		if f, err = os.Open(exe); err == nil {
			_, err = io.Copy(h, f)
			f.Close()
		}
	}
	if err != nil {
		io.WriteString(h, err.Error()+rand.Text())
	}
	h.Sum(sum[:0])
	return sum
})

// goBuildID reads the Go build ID of the ELF executable exe from its
// .note.go.buildid note, as `go tool buildid` prints it. The go command
// writes four parts for an executable (the main package's action and
// content IDs, the link's action ID, and the content ID of the linked
// bytes); anything else (no note, an ID set by hand with -buildid, not
// ELF) is no ID, and the executable is hashed instead.
func goBuildID(exe string) (string, bool) {
	f, err := elf.Open(exe)
	if err != nil {
		return "", false
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil || s.Size > 4096 {
		return "", false
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return "", false
	}
	// An ELF note: the name's and the description's sizes, the type
	// (4), the name "Go\0" padded to 4 bytes, the description.
	bo := f.ByteOrder
	nameSize, descSize, typ := bo.Uint32(data), bo.Uint32(data[4:]), bo.Uint32(data[8:])
	if nameSize != 4 || typ != 4 || string(data[12:16]) != "Go\x00\x00" || uint64(descSize) > uint64(len(data)-16) {
		return "", false
	}
	id := string(data[16 : 16+descSize])
	parts := strings.Split(id, "/")
	if len(parts) != 4 {
		return "", false
	}
	for _, p := range parts {
		if len(p) < 16 {
			return "", false
		}
	}
	return id, true
}
