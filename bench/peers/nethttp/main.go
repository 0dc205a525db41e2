// Command nethttp answers a few URLs with folio's exact answers (copied
// from a running folio serve, see package peers) through net/http, as
// cheaply as an http.Handler can: the ceiling for folio serve.
package main

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"folio/bench/peers"
)

func main() {
	c := peers.Flags()
	keepHeap(c.HeapMB, c.HeapScanMB, c.GOGC)
	spins := spinsFor(c.Work)
	if spins > 0 {
		fmt.Fprintf(os.Stderr, "nethttp: -work %v: %d rounds of spin per request\n", c.Work, spins)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if spins > 0 {
			spin(spins)
		}
		rt := c.Routes[r.URL.Path]
		if rt == nil {
			http.NotFound(w, r)
			return
		}
		rep := rt.Pick(r.Header["Accept-Encoding"])
		hd := w.Header()
		if inm := r.Header["If-None-Match"]; len(inm) == 1 && inm[0] == rep.ETag && rep.ETag != "" {
			for _, f := range rep.NotModified {
				hd[f.Name] = f.Values
			}
			w.WriteHeader(http.StatusNotModified)
			return
		}
		for _, f := range rep.Header {
			hd[f.Name] = f.Values
		}
		w.Write(rep.Body)
	})
	if c.Front != "" {
		serveFront(c.Addr, h, c.Front)
	}
	// The limits folio serve sets, so that both pay for their deadlines.
	s := &http.Server{Addr: c.Addr, Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second,
		MaxHeaderBytes: 64 << 10}
	panic(s.ListenAndServe())
}

// sink keeps spin's arithmetic from being optimized away.
var sink uint64

// spin runs n rounds of a little arithmetic: CPU time, no memory, no
// system call.
func spin(n int) {
	x := sink
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink = x
}

// spinsFor returns the rounds of spin that take about d of CPU time
// here, measured at start-up in the thread's own CPU time (so that a
// busy machine's preemptions do not count), the least of five tries.
func spinsFor(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 1 << 23
	best := time.Duration(1 << 62)
	for range 5 {
		t := threadCPU()
		spin(n)
		best = min(best, threadCPU()-t)
	}
	return max(1, int(float64(n)*float64(d)/float64(best)))
}

// threadCPU is the calling thread's user and system CPU time.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru) // not Linux: the process's
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

// live is the heap keepHeap holds, for the collector to mark.
var live []*node

// node is about the size of a post in folio's heap, with pointers.
type node struct {
	next *node
	name string
	refs [8]*node
	pad  [560]byte // text: the collector does not scan past the pointers
}

// record is one of folio's small objects with pointers (a post's
// strings, a route, an index entry), in its 176-byte size class.
type record struct {
	next *record
	text []byte
	refs [4]*record
	vals [13]uint64
}

// records and texts are the heap keepHeap holds when shaped as folio's.
var (
	records []*record
	texts   [][]byte
)

// keepHeap holds mb MB of live objects that point to each other (none:
// 0) and sets GOGC (0: the default): a bare server with folio's live
// heap and collector setting, to price what the heap alone costs a
// request. With scanMB > 0 the heap has folio's shape instead
// (BENCHMARKS.md, "Session 31"): scanMB MB of 176-byte records with
// pointers, the rest of mb in pointer-free texts of 6 KB (folio at
// 10,000 posts: 100 MB live, 28.5 MB of it scannable, 160,000 objects).
func keepHeap(mb, scanMB, gogc int) {
	if gogc > 0 {
		debug.SetGCPercent(gogc)
	}
	if scanMB > 0 {
		texts = make([][]byte, max(0, mb-scanMB)<<20/(6<<10))
		for i := range texts {
			texts[i] = make([]byte, 6<<10)
		}
		records = make([]*record, min(mb, scanMB)<<20/176)
		for i := range records {
			r := &record{}
			if len(texts) > 0 {
				r.text = texts[i%len(texts)]
			}
			if i > 0 {
				r.next = records[i-1]
				for j := range r.refs {
					r.refs[j] = records[(i*7+j*13)%i]
				}
			}
			records[i] = r
		}
		runtime.GC()
		return
	}
	n := mb << 20 / 648
	live = make([]*node, n)
	for i := range live {
		live[i] = &node{name: "post"}
		if i > 0 {
			live[i].next = live[i-1]
			for j := range live[i].refs {
				live[i].refs[j] = live[(i*7+j*13)%i]
			}
		}
	}
	runtime.GC()
}
