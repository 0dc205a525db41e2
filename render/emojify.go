package render

import (
	"regexp"

	"github.com/yuin/goldmark-emoji/definition"
)

var (
	emojiCode = regexp.MustCompile(`:[a-z0-9_+\-]+:`)
	github    = definition.Github()
)

// emojify replaces :emoji: codes by their characters, as Hugo's emojify.
func emojify(s string) string {
	return emojiCode.ReplaceAllStringFunc(s, func(code string) string {
		if e, ok := github.Get(code[1 : len(code)-1]); ok && e.IsUnicode() {
			return string(e.Unicode)
		}
		return code
	})
}
