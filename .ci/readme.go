//go:build ignore

// Command readme runs every command of a README as written, in order, in
// one shell, as a reader pasting them would, and checks what each prints
// against what the README shows. .ci/readme runs it in a clean clone in an
// empty folder; CI runs .ci/readme.
//
// What it reads in the README:
//
//   - A ```sh block is commands, run one after the other (a command goes
//     on while a quote is open or a line ends with \). When a ```text
//     block follows it, that is what the block prints, all commands
//     together.
//   - A ```console block is "$ command" lines, each followed by what it
//     prints.
//   - A block after <!-- readme-file: PATH --> is a file the reader
//     writes: it is written to PATH (~ is the home folder; a relative
//     path is from the shell's folder) before the next command runs.
//   - Every other block (toml, markdown, js, …) is only read.
//
// A server (go run . dev, go run . serve, folio dev, folio serve) runs in
// the background until the next server starts or the README ends; what
// the README shows under it is what it prints up to and including its
// "folio: serving" line. Any other command must exit 0, unless what the
// README shows ends with go run's "exit status N".
//
// What is compared, line by line, with trailing spaces and carriage
// returns dropped: a "…" in a shown line stands for any text, and a line
// that is only "…" for any number of lines (the README abridges with it).
// Volatile parts are normalised here, each by name: the "built in" and
// "in" durations of folio's own lines, HTTP Date headers (the README
// leaves them out), and go's "go: downloading" lines of a first run.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	dir := flag.String("dir", ".", "the folder the reader's shell starts in (a clone)")
	wait := flag.Duration("server-wait", 15*time.Minute, "how long a server may take to print its start line (a first go run compiles)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run .ci/readme.go [-dir DIR] README.md")
		os.Exit(2)
	}
	steps, err := parse(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "readme:", err)
		os.Exit(2)
	}
	r, err := newRunner(*dir, *wait)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readme:", err)
		os.Exit(2)
	}
	failed := r.run(steps)
	r.close()
	if failed > 0 {
		fmt.Printf("readme: %d of %d steps failed\n", failed, len(steps))
		os.Exit(1)
	}
	fmt.Printf("readme: all %d steps as the README shows\n", len(steps))
}

// A step is one thing the reader does: run a command (checking what it
// prints when want is set) or write a file.
type step struct {
	line    int    // in the README
	command string // "" for a file
	want    []string
	hasWant bool
	file    string // for a file: its path, as written
	content string
}

func (s step) String() string {
	if s.command == "" {
		return fmt.Sprintf("README:%d: write %s", s.line, s.file)
	}
	return fmt.Sprintf("README:%d: $ %s", s.line, s.command)
}

var fileMarker = regexp.MustCompile(`^<!-- readme-file: (\S+) -->$`)

// parse reads the README's steps.
func parse(name string) ([]step, error) {
	text, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(text), "\n")
	var steps []step
	file := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := fileMarker.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			file = m[1]
			continue
		}
		if !strings.HasPrefix(l, "```") {
			if strings.TrimSpace(l) != "" {
				file = ""
			}
			continue
		}
		info := strings.TrimSpace(strings.TrimPrefix(l, "```"))
		start := i + 1
		end := start
		for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("README:%d: a block that is never closed", i+1)
		}
		body := lines[start:end]
		i = end
		switch {
		case file != "":
			steps = append(steps, step{line: start, file: file, content: strings.Join(body, "\n") + "\n"})
			file = ""
		case info == "sh":
			cmds := commands(body, start+1)
			// A ```text block right after is what the block prints.
			j := end + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && strings.TrimSpace(lines[j]) == "```text" {
				k := j + 1
				for k < len(lines) && !strings.HasPrefix(lines[k], "```") {
					k++
				}
				steps = append(steps, step{line: start + 1, command: strings.Join(bodies(cmds), "\n"), want: lines[j+1 : k], hasWant: true})
				i = k
				continue
			}
			for _, c := range cmds {
				steps = append(steps, c)
			}
		case info == "console":
			steps = append(steps, consoleSteps(body, start+1)...)
		}
	}
	return steps, nil
}

func bodies(cmds []step) []string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.command)
	}
	return out
}

// commands splits a shell block into commands: a command goes on while a
// quote is open or its line ends with a backslash. Comment lines are
// left out.
func commands(body []string, first int) []step {
	var out []step
	var cur []string
	at := 0
	for i, l := range body {
		if len(cur) == 0 {
			if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			at = first + i
		}
		cur = append(cur, l)
		joined := strings.Join(cur, "\n")
		if !openQuote(joined) && !strings.HasSuffix(l, "\\") {
			out = append(out, step{line: at, command: joined})
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, step{line: at, command: strings.Join(cur, "\n")})
	}
	return out
}

// openQuote reports whether s ends inside a quote, as bash reads it (a
// # outside quotes starts a comment, to the end of its line).
func openQuote(s string) bool {
	var q byte
	comment := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case comment:
			comment = c != '\n'
		case q == '"' && c == '\\':
			i++ // an escaped character inside double quotes
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			q = c
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n'):
			comment = true
		}
	}
	return q != 0
}

// consoleSteps reads "$ command" lines and what follows each.
func consoleSteps(body []string, first int) []step {
	var out []step
	for i := 0; i < len(body); i++ {
		l := body[i]
		if !strings.HasPrefix(l, "$ ") {
			continue
		}
		cmd := []string{strings.TrimPrefix(l, "$ ")}
		at := first + i
		for openQuote(strings.Join(cmd, "\n")) || strings.HasSuffix(cmd[len(cmd)-1], "\\") {
			i++
			if i == len(body) {
				break
			}
			cmd = append(cmd, body[i])
		}
		var want []string
		for i+1 < len(body) && !strings.HasPrefix(body[i+1], "$ ") {
			i++
			want = append(want, body[i])
		}
		out = append(out, step{line: at, command: strings.Join(cmd, "\n"), want: want, hasWant: true})
	}
	return out
}

// A runner is the reader's shell, and the servers it started.
type runner struct {
	out     string // the folder of the shell's files
	wait    time.Duration
	sh      *exec.Cmd
	in      *bufio.Writer
	stdin   interface{ Close() error }
	n       int
	servers []*exec.Cmd
}

func newRunner(dir string, wait time.Duration) (*runner, error) {
	out, err := os.MkdirTemp("", "readme-run-")
	if err != nil {
		return nil, err
	}
	sh := exec.Command("bash", "--noprofile", "--norc")
	sh.Dir = dir
	stdin, err := sh.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := sh.Start(); err != nil {
		return nil, err
	}
	return &runner{out: out, wait: wait, sh: sh, in: bufio.NewWriter(stdin), stdin: stdin}, nil
}

func (r *runner) close() {
	r.stopServers()
	r.stdin.Close()
	r.sh.Wait()
	os.RemoveAll(r.out)
}

// run runs the steps and returns how many failed.
func (r *runner) run(steps []step) int {
	failed := 0
	for _, s := range steps {
		if err := r.do(s); err != nil {
			failed++
			fmt.Printf("FAIL %s\n%s\n\n", s, indent(err.Error()))
		} else {
			fmt.Printf("ok   %s\n", firstLine(s.String()))
		}
	}
	return failed
}

var serverCommand = regexp.MustCompile(`^(go run \.|folio|\S*/folio)\s+(dev|serve)\b`)

func (r *runner) do(s step) error {
	if s.command == "" {
		return r.writeFile(s)
	}
	if serverCommand.MatchString(s.command) {
		return r.server(s)
	}
	got, rc, err := r.shell(s.command)
	if err != nil {
		return err
	}
	want := s.want
	if n := len(want); n > 0 {
		if m := regexp.MustCompile(`^exit status (\d+)$`).FindStringSubmatch(strings.TrimSpace(want[n-1])); m != nil {
			if code, _ := strconv.Atoi(m[1]); code != rc {
				return fmt.Errorf("exit status %d, the README shows %d\n%s", rc, code, got)
			}
			rc = 0
		}
	}
	if rc != 0 {
		return fmt.Errorf("exit status %d:\n%s", rc, got)
	}
	if s.hasWant {
		return compare(want, got)
	}
	return nil
}

// shell runs command in the reader's shell and returns what it printed
// (stdout and stderr together) and its exit status.
func (r *runner) shell(command string) (string, int, error) {
	r.n++
	base := filepath.Join(r.out, strconv.Itoa(r.n))
	if err := os.WriteFile(base+".sh", []byte(command+"\n"), 0o644); err != nil {
		return "", 0, err
	}
	fmt.Fprintf(r.in, "source %q < /dev/null > %q 2>&1; echo $? > %q.tmp; mv %q.tmp %q\n", base+".sh", base+".out", base+".rc", base+".rc", base+".rc")
	if err := r.in.Flush(); err != nil {
		return "", 0, err
	}
	for {
		b, err := os.ReadFile(base + ".rc")
		if err == nil {
			rc, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			out, _ := os.ReadFile(base + ".out")
			return string(out), rc, nil
		}
		if r.sh.ProcessState != nil {
			return "", 0, errors.New("the shell exited")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// state is the shell's folder and environment, for a server started
// beside it.
func (r *runner) state() (string, []string, error) {
	dir, _, err := r.shell("pwd")
	if err != nil {
		return "", nil, err
	}
	env, _, err := r.shell("env -0")
	if err != nil {
		return "", nil, err
	}
	return strings.TrimSpace(dir), strings.Split(strings.TrimRight(env, "\x00"), "\x00"), nil
}

var startLine = regexp.MustCompile(`(?m)^folio: serving \S+ \(.*\)$`)

// server starts a server as the reader's shell would, stopping the one
// before, and waits for its start line.
func (r *runner) server(s step) error {
	r.stopServers()
	dir, env, err := r.state()
	if err != nil {
		return err
	}
	r.n++
	outName := filepath.Join(r.out, strconv.Itoa(r.n)+".out")
	out, err := os.Create(outName)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-c", s.command)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // stopped with its children (go run's program)
	if err := cmd.Start(); err != nil {
		return err
	}
	r.servers = append(r.servers, cmd)
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(r.wait)
	for {
		b, _ := os.ReadFile(outName)
		if loc := startLine.FindIndex(b); loc != nil {
			if s.hasWant {
				return compare(s.want, string(b[:loc[1]]))
			}
			return nil
		}
		select {
		case <-exited:
			b, _ := os.ReadFile(outName)
			return fmt.Errorf("the server exited before its start line:\n%s", b)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no start line within %v:\n%s", r.wait, b)
		}
	}
}

func (r *runner) stopServers() {
	for _, cmd := range r.servers {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Process.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	r.servers = nil
}

func (r *runner) writeFile(s step) error {
	dir, env, err := r.state()
	if err != nil {
		return err
	}
	name := s.file
	if rest, ok := strings.CutPrefix(name, "~/"); ok {
		for _, kv := range env {
			if home, ok := strings.CutPrefix(kv, "HOME="); ok {
				name = filepath.Join(home, rest)
			}
		}
	} else if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, []byte(s.content), 0o644)
}

// The normalisations, each for one volatile part.
var (
	durations   = regexp.MustCompile(`(?m)^(folio: .*\b(?:built )?in )[0-9.]+(?:µs|ms|s|m[0-9.]+s)(\)?)$`)
	dateHeader  = regexp.MustCompile(`(?m)^Date: .*\n`)
	downloading = regexp.MustCompile(`(?m)^go: downloading .*\n`)
)

func normalise(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = dateHeader.ReplaceAllString(s, "")
	s = downloading.ReplaceAllString(s, "")
	return durations.ReplaceAllString(s, "${1}D$2")
}

// compare matches what a command printed against what the README shows.
func compare(want []string, got string) error {
	g := trimLines(strings.Split(normalise(got), "\n"))
	w := make([]string, len(want))
	for i, l := range want {
		w[i] = durations.ReplaceAllString(l, "${1}D$2")
	}
	w = trimLines(w)
	if match(w, g) {
		return nil
	}
	return fmt.Errorf("printed:\n%s\nthe README shows:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
}

// trimLines drops trailing spaces and the blank lines at both ends.
func trimLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(l, " \t\r")
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// match reports whether got fits want, "…" lines standing for any number
// of lines and "…" within a line for any text.
func match(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "…" {
		for skip := 0; skip <= len(got); skip++ {
			if match(want[1:], got[skip:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && lineMatch(want[0], got[0]) && match(want[1:], got[1:])
}

func lineMatch(want, got string) bool {
	if !strings.Contains(want, "…") {
		return want == got
	}
	parts := strings.Split(want, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

func indent(s string) string {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("     " + l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
