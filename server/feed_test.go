package server

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/mmcdole/gofeed/rss"
)

// TestFeed parses /rss.xml with real feed parsers and checks every
// element CONTRACT lists.
func TestFeed(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	resp, body := get(t, ts, "GET", "/rss.xml")
	if ct := resp.Header.Get("Content-Type"); ct != "application/rss+xml; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	feed, err := gofeed.NewParser().Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if feed.FeedType != "rss" || feed.FeedVersion != "2.0" {
		t.Errorf("feed type %s %s", feed.FeedType, feed.FeedVersion)
	}
	if feed.FeedLink != "https://example.org/rss.xml" {
		t.Errorf("atom:link self %q", feed.FeedLink)
	}
	if feed.Title != "Fixture & Co" || feed.Link != "https://example.org/" ||
		feed.Description != "A site for tests: <em>escaped</em>." || feed.Language != "en" {
		t.Errorf("channel: %q %q %q %q", feed.Title, feed.Link, feed.Description, feed.Language)
	}

	ch, err := (&rss.Parser{}).Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	// lastBuildDate is the newest post's date, not the clock.
	if ch.LastBuildDate != "Sun, 01 Mar 2026 00:00:00 +0000" {
		t.Errorf("lastBuildDate %q", ch.LastBuildDate)
	}
	// feed.limit = 3: the three newest posts, newest first.
	var titles []string
	for _, it := range ch.Items {
		titles = append(titles, it.Title)
	}
	if got := strings.Join(titles, "|"); got != `Quiet|Same day A|A trip <with> "quotes" & ampersands` {
		t.Errorf("items %s", got)
	}
	trip := ch.Items[2]
	if trip.Link != "https://example.org/blog/trip/" || trip.GUID == nil ||
		trip.GUID.Value != trip.Link || trip.GUID.IsPermalink != "true" {
		t.Errorf("trip link/guid: %q %+v", trip.Link, trip.GUID)
	}
	pub, err := time.Parse(time.RFC1123Z, trip.PubDate)
	if err != nil || !pub.Equal(time.Date(2026, 2, 10, 7, 0, 0, 0, time.UTC)) {
		t.Errorf("pubDate %q: %v", trip.PubDate, err)
	}
	var cats []string
	for _, c := range trip.Categories {
		cats = append(cats, c.Value)
	}
	if got := strings.Join(cats, ","); got != "life,travel,naïve" {
		t.Errorf("categories %s, want the category then each tag", got)
	}
	for _, it := range ch.Items {
		if it.Description == "" && it.Title == "Quiet" {
			t.Error("Quiet has no description")
		}
	}
	if d := ch.Items[0].Description; d != "Only a summary, with a control character." {
		t.Errorf("description %q: the control character must be dropped", d)
	}
}

// TestXMLEscape: whatever a post holds, the feed stays well-formed XML.
func TestXMLEscape(t *testing.T) {
	for _, in := range []string{
		"plain", "a & b < c > d \" e ' f", "bell\x07 nul\x00 esc\x1b", "tab\tnl\ncr\r",
		"bad utf-8 \xff\xfe", "\uFFFE\uFFFF", "emoji 🎉 and 日本語", "]]>",
	} {
		doc := "<a>" + xmlEscape(in) + "</a>"
		var out string
		if err := xml.Unmarshal([]byte(doc), &out); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
	if got := xmlEscape("a\x01b&c"); got != "ab&amp;c" {
		t.Errorf("xmlEscape = %q", got)
	}
}
