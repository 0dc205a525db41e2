package export

import (
	"net/http"
	"reflect"
	"testing"
)

// TestHeaderEncoding: a header set comes back from the manifest as it was.
func TestHeaderEncoding(t *testing.T) {
	for _, h := range []http.Header{
		nil,
		{},
		{"Etag": {`"a"`}, "Vary": {"Accept", "Accept-Encoding"}, "Link": {"<x>; rel=alternate", ""}, "X-Empty": {}},
	} {
		got := decodeHeader(encodeHeader(h))
		if !reflect.DeepEqual(got, h) {
			t.Errorf("%#v came back as %#v", h, got)
		}
	}
}
