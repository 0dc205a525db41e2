package pipeline

import (
	"testing"
	"time"
)

// TestDateLayouts: front matter dates in the shapes Hugo 0.165 reads, each
// the instant Hugo gives it (printed by a Hugo build of one post per
// shape, the time zone UTC). Fansesi's blog writes "2023-04-06
// 00:00:00+0000", which folio refused.
func TestDateLayouts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"2023-04-06 00:00:00+0000", "2023-04-06T00:00:00Z"},
		{"2023-04-06 01:02:03 -07:00", "2023-04-06T08:02:03Z"},
		{"2023-04-06 01:02:03 -0700", "2023-04-06T08:02:03Z"},
		{"Thu Apr 06 01:02:03 -0700 2023", "2023-04-06T08:02:03Z"},
		{"2023-04-06 01:02:03.5 +0000 UTC", "2023-04-06T01:02:03Z"},
		{"2023-04-06 01:02:03Z", "2023-04-06T01:02:03Z"},
		{"2023-04-06T01:02:03.123456789", "2023-04-06T01:02:03Z"},
		{"Thu Apr  6 01:02:03 2023", "2023-04-06T01:02:03Z"},
		{"Thu Apr  6 01:02:03 UTC 2023", "2023-04-06T01:02:03Z"},
		{"Thursday, 06-Apr-23 01:02:03 UTC", "2023-04-06T01:02:03Z"},
		{"2023-04-06T01:02:03+0100", "2023-04-06T00:02:03Z"},
		{"Thu, 06 Apr 2023 01:02:03 +0100", "2023-04-06T00:02:03Z"},
		{"06 Apr 23 01:02 +0100", "2023-04-06T00:02:00Z"},
		{"06 Apr 2023", "2023-04-06T00:00:00Z"},
	} {
		got, err := toTime(tc.in, time.UTC)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if s := got.UTC().Truncate(time.Second).Format(time.RFC3339); s != tc.want {
			t.Errorf("%q = %s, want %s (Hugo's)", tc.in, s, tc.want)
		}
	}
}
