package agents

import (
	"unicode"
	"unicode/utf8"
)

// EstimateTokens estimates how many o200k BPE tokens text costs, for the
// x-markdown-tokens header. It is one pass over the text:
// an agent wants the order of magnitude before it fetches, not a bill.
//
// The weights were fitted by least squares (relative error) on the
// Markdown twins of the sample blog and the 10,000-post corpus, against
// js-tiktoken's o200k_base, then rounded; TestTokenEstimate checks them
// against counts recorded from the real tokenizer.
func EstimateTokens(text []byte) int {
	var c tokenCounts
	prev := classNone // the class of the character before
	spaces := 0
	for i := 0; i < len(text); {
		if b := text[i]; b < utf8.RuneSelf {
			i++
			class := asciiClass[b]
			switch class {
			case classSpace:
				spaces++
				if spaces == 2 {
					c.spaceRuns++
				}
				prev = classSpace
				continue
			case classLetter:
				if prev != classLetter {
					c.words++
				}
			case classDigit:
				if prev != classDigit {
					c.digitRuns++
				}
			case classNewline:
				c.newlines++
			case classPunct:
				c.punct++
			}
			spaces, prev = 0, class
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		i += size
		if isCJK(r) {
			c.cjk++
		} else {
			c.other++
		}
		spaces, prev = 0, classNone
	}
	return c.estimate(len(text))
}

// The classes of ASCII characters EstimateTokens tells apart; every
// other character, and ASCII that is none of these, is classNone.
const (
	classNone byte = iota
	classSpace
	classLetter
	classDigit
	classNewline
	classPunct // unicode.IsPunct or unicode.IsSymbol
)

// asciiClass is the class of each ASCII character: one load per byte,
// for a loop that runs over every Markdown body the server makes.
var asciiClass = func() (t [utf8.RuneSelf]byte) {
	for r := range rune(utf8.RuneSelf) {
		switch {
		case r == ' ':
			t[r] = classSpace
		case isASCIILetter(r):
			t[r] = classLetter
		case '0' <= r && r <= '9':
			t[r] = classDigit
		case r == '\n':
			t[r] = classNewline
		case unicode.IsPunct(r) || unicode.IsSymbol(r):
			t[r] = classPunct
		}
	}
	return t
}()

// tokenCounts are the features EstimateTokens weighs.
type tokenCounts struct {
	words, digitRuns, punct, newlines, spaceRuns, cjk, other int
}

// estimate is the weighted sum, in hundredths to stay in integers.
func (c tokenCounts) estimate(size int) int {
	n := 105*c.words + 200*c.digitRuns + 55*c.punct + 50*c.newlines + 65*c.spaceRuns + 130*c.cjk + 85*c.other
	n = (n + 50) / 100
	if n == 0 && size > 0 {
		return 1
	}
	return n
}

func isASCIILetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

// isCJK reports the scripts written without spaces between words, where
// a token is about a character: Han, kana and Hangul.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}
