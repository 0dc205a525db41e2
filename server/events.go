package server

import (
	"net/http"

	"folio/pipeline"
)

// Owned by the dev-server issue: live reload over Server-Sent Events.

// broker fans snapshots out to live-reload clients.
type broker struct{}

func newBroker() *broker { return &broker{} }

func (b *broker) publish(snap *pipeline.Snapshot) {}

func (s *Server) liveEvents(w http.ResponseWriter, r *http.Request) {
	s.problem(w, r, http.StatusNotImplemented, "not built yet")
}
