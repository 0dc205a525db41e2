package server

import (
	"io"
	"net/http"
	"os"
	"sync"
)

// sendfileMin is the size from which a body is sent from a file: below
// it, copying from the heap costs less than the file's extra system call.
const sendfileMin = largeBody

// A bodyFile is a large body kept, besides the heap, as a file in memory
// (memfd, memfile_linux.go), made on the first request that sends it.
// Sent as a section of that file, net/http hands it to the connection's
// ReadFrom and the front end sends it with sendfile(2) (front/sendfile_linux.go),
// as nginx sends the export's files, rather than copying it from the heap
// on every request. Where no memfd can be made, f stays nil and the body
// is written from the heap. The file is closed when the representation is
// dropped (an *os.File closes itself when unreachable).
type bodyFile struct {
	once sync.Once
	f    *os.File
}

// newBodyFile returns a bodyFile for a body of n bytes, nil for one too
// small to be worth it.
func newBodyFile(n int) *bodyFile {
	if n < sendfileMin {
		return nil
	}
	return &bodyFile{}
}

// writeBody writes body, from file when there is one.
func writeBody(w http.ResponseWriter, body []byte, file *bodyFile) {
	if file != nil {
		file.once.Do(func() { file.f = memFile(body) })
		if file.f != nil {
			io.Copy(w, io.NewSectionReader(file.f, 0, int64(len(body))))
			return
		}
	}
	w.Write(body)
}
