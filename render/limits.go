package render

import (
	"errors"
	"fmt"
	"reflect"
	"time"
)

// A site's templates are input like its content: a template can loop,
// recurse and build strings without end. Every template a page runs
// shares one budget, so no page costs unbounded time or memory:
//
//   - steps: every range iteration and template call is a step
//     (templates are instrumented at load time, see templates.go), and
//     so is each item a function compares one by one (in, uniq, …);
//   - size: a string or list a function makes, and a call's output, have
//     a ceiling, and the bytes made in all another;
//   - depth: templates, partials and nested calls have a maximum depth.
//
// These are counted, so a page stops at the same place on every machine,
// however busy. The clock is only the last resort, for a template whose
// calls are each expensive without making anything (a search through a
// 4 MiB string in every step of a loop): the steps check it now and then.
// A million steps take about half a second, four with the race detector
// on a busy machine, so no template the counted bounds let through
// meets it.
//
// Past a bound the template's execution stops with an error that names
// the bound; the call renders as its inner text and the error is a
// problem at its line.
const (
	maxTemplateRun  = 10 * time.Second
	maxValueSize    = 4 << 20 // bytes of a string, or 16 bytes per list item
	maxCallOutput   = 4 << 20
	maxTemplateNest = 64
)

// errLimit marks the errors of the bounds.
var errLimit = errors.New("template limit")

// maxSteps is a page's steps. The tests lower it, and replace the last
// resort's clock, to reach each bound without spending it.
var (
	maxSteps = 1 << 20
	clock    = time.Now
)

// limits is one page's template budget.
type limits struct {
	steps    int
	deadline time.Time
	work     int
}

// step counts one step; it fails once the budget or the time is spent.
func (l *limits) step() error { return l.stepN(1) }

// stepN counts n steps at once (n ≥ 1).
func (l *limits) stepN(n int) error {
	before := l.steps
	l.steps += n
	if l.steps > maxSteps {
		return fmt.Errorf("%w: more than %d steps (loops, calls, items compared) in one page's templates", errLimit, maxSteps)
	}
	if l.steps>>10 != before>>10 { // every 1,024 steps
		if l.deadline.IsZero() {
			l.deadline = clock().Add(maxTemplateRun)
		} else if clock().After(l.deadline) {
			return fmt.Errorf("%w: one page's templates ran longer than %v", errLimit, maxTemplateRun)
		}
	}
	return nil
}

// size fails for a value past the size ceiling: a long string, or a list
// or map with too many entries.
func (l *limits) size(v any) error {
	n := 0
	switch v := v.(type) {
	case string:
		n = len(v)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			n = rv.Len() * 16
		case reflect.String:
			n = rv.Len()
		}
	}
	if n > maxValueSize {
		return fmt.Errorf("%w: a value larger than %d bytes", errLimit, maxValueSize)
	}
	return nil
}

// maxWork bounds the bytes one page's templates make in all: a template
// that grows a string in a loop copies it each time, so the sizes of the
// values made are summed.
const maxWork = 256 << 20

// charge counts n bytes made by a template function.
func (l *limits) charge(n int) error {
	l.work += n
	if l.work > maxWork {
		return fmt.Errorf("%w: one page's templates made more than %d MiB of values", errLimit, maxWork>>20)
	}
	return nil
}
