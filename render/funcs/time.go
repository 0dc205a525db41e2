package funcs

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cast"
)

// timeNS is Hugo's time namespace. now is the instant the rendering is
// for, so a page renders the same way every time for one snapshot.
type timeNS struct{ n *namespaces }

// Now is the rendering's instant.
func (t *timeNS) Now() time.Time { return t.n.env().Now() }

// AsTime converts a date string or a time to a time.
func (t *timeNS) AsTime(v any, loc ...any) (time.Time, error) {
	if tm, ok := v.(time.Time); ok {
		return tm, nil
	}
	s, err := toString(v)
	if err != nil {
		return time.Time{}, err
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02", time.RFC1123Z, time.RFC1123, "January 2, 2006", "Jan 2, 2006", "2 Jan 2006"} {
		if tm, err := time.Parse(layout, s); err == nil {
			return tm, nil
		}
	}
	return cast.ToTimeE(s)
}

// Format formats a time (or a date string) with a Go layout, or one of
// Hugo's names (:date_long, :time_short, …) in English.
func (t *timeNS) Format(layout string, v any) (string, error) {
	tm, err := t.AsTime(v)
	if err != nil {
		return "", err
	}
	if l, ok := namedLayouts[layout]; ok {
		layout = l
	}
	return tm.Format(layout), nil
}

// namedLayouts are Hugo's layout names, as its English locale writes them.
var namedLayouts = map[string]string{
	":date_full":   "Monday, January 2, 2006",
	":date_long":   "January 2, 2006",
	":date_medium": "Jan 2, 2006",
	":date_short":  "1/2/06",
	":time_full":   "3:04:05 pm MST",
	":time_long":   "3:04:05 pm MST",
	":time_medium": "3:04:05 pm",
	":time_short":  "3:04 pm",
}

// Duration makes a duration of n units ("second", "h", …).
func (t *timeNS) Duration(unit any, n any) (time.Duration, error) {
	u, err := toString(unit)
	if err != nil {
		return 0, err
	}
	k, err := cast.ToFloat64E(n)
	if err != nil {
		return 0, fmt.Errorf("duration: %w", err)
	}
	per, ok := map[string]time.Duration{
		"nanosecond": time.Nanosecond, "ns": time.Nanosecond, "microsecond": time.Microsecond, "us": time.Microsecond, "µs": time.Microsecond,
		"millisecond": time.Millisecond, "ms": time.Millisecond, "second": time.Second, "s": time.Second,
		"minute": time.Minute, "m": time.Minute, "hour": time.Hour, "h": time.Hour,
	}[u]
	if !ok {
		return 0, errors.New("duration: unknown unit " + u)
	}
	return time.Duration(k * float64(per)), nil
}

// ParseDuration parses "1h30m".
func (t *timeNS) ParseDuration(v any) (time.Duration, error) {
	s, err := toString(v)
	if err != nil {
		return 0, err
	}
	return time.ParseDuration(s)
}

// In converts a time to a time zone.
func (t *timeNS) In(zone string, v any) (time.Time, error) {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return time.Time{}, err
	}
	tm, err := t.AsTime(v)
	return tm.In(loc), err
}
