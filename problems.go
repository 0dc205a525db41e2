package main

import (
	"fmt"
	"io"

	"folio/pipeline"
)

// writeProblems prints problems one a line, as check and build list them:
// every error, and each warning's message once, at its first place, with
// how many more places say the same. A site whose theme is not checked
// out says "shortcode "alert": no template for it…" at each of 118 uses,
// which would bury everything else. With each, every warning is printed;
// hint says how the author gets that list.
func writeProblems(w io.Writer, problems []pipeline.Problem, each bool, hint string) {
	var more map[string][]pipeline.Problem // a repeated warning's later places, by message
	if !each {
		more = repeatedWarnings(problems)
	}
	for _, p := range problems {
		rest, repeated := more[p.Message]
		switch {
		case p.Severity != pipeline.Warning || !repeated:
			fmt.Fprintln(w, p)
		case rest != nil:
			fmt.Fprintf(w, "%s (and %d more in %s: %s)\n", p, len(rest), count(filesOf(rest), "file", "files"), hint)
			more[p.Message] = nil // printed: the later places are not
		}
	}
}

// repeatedWarnings maps the message of each warning said more than once
// to its places after the first.
func repeatedWarnings(problems []pipeline.Problem) map[string][]pipeline.Problem {
	seen := map[string]int{}
	for _, p := range problems {
		if p.Severity == pipeline.Warning {
			seen[p.Message]++
		}
	}
	out := map[string][]pipeline.Problem{}
	first := map[string]bool{}
	for _, p := range problems {
		if p.Severity != pipeline.Warning || seen[p.Message] < 2 {
			continue
		}
		if !first[p.Message] {
			first[p.Message] = true
			continue
		}
		out[p.Message] = append(out[p.Message], p)
	}
	return out
}

// filesOf counts the files problems name.
func filesOf(problems []pipeline.Problem) int {
	files := map[string]bool{}
	for _, p := range problems {
		files[p.Path] = true
	}
	return len(files)
}
