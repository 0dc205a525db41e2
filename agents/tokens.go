package agents

import (
	"unicode"
	"unicode/utf8"
)

// EstimateTokens estimates how many o200k BPE tokens text costs, for the
// x-markdown-tokens header. It is one pass over the text with no tables:
// an agent wants the order of magnitude before it fetches, not a bill.
//
// The weights were fitted by least squares (relative error) on the
// Markdown twins of the sample blog and the 10,000-post corpus, against
// js-tiktoken's o200k_base, then rounded; TestTokenEstimate checks them
// against counts recorded from the real tokenizer.
func EstimateTokens(text []byte) int {
	var c tokenCounts
	prev := rune(0)
	spaces := 0
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(text[i:])
		}
		i += size
		switch {
		case r == ' ':
			spaces++
			if spaces == 2 {
				c.spaceRuns++
			}
		case isASCIILetter(r):
			if !isASCIILetter(prev) {
				c.words++
			}
		case '0' <= r && r <= '9':
			if !('0' <= prev && prev <= '9') {
				c.digitRuns++
			}
		case r == '\n':
			c.newlines++
		case r < utf8.RuneSelf:
			if unicode.IsPunct(r) || unicode.IsSymbol(r) {
				c.punct++
			}
		case isCJK(r):
			c.cjk++
		default:
			c.other++
		}
		if r != ' ' {
			spaces = 0
		}
		prev = r
	}
	return c.estimate(len(text))
}

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
