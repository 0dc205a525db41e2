package funcs

import (
	"errors"
	"fmt"
	"strconv"
)

// fmtNS is Hugo's fmt namespace: print, printf and println, and errorf
// and warnf, which report to the author.
type fmtNS struct{ n *namespaces }

func (f *fmtNS) Print(a ...any) (string, error)   { return f.n.sizedString(fmt.Sprint(a...), nil) }
func (f *fmtNS) Println(a ...any) (string, error) { return f.n.sizedString(fmt.Sprintln(a...), nil) }

// Printf formats as Go's fmt does; widths and precisions are bounded, so
// that "%99999999d" cannot make a gigabyte.
func (f *fmtNS) Printf(format string, a ...any) (string, error) {
	if err := checkFormat(format, a); err != nil {
		return "", err
	}
	return f.n.sizedString(fmt.Sprintf(format, a...), nil)
}

// maxWidth bounds printf's widths and precisions.
const maxWidth = 10_000

// checkFormat refuses widths and precisions over maxWidth, written or
// taken from the arguments with *.
func checkFormat(format string, args []any) error {
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && (format[i] == '+' || format[i] == '-' || format[i] == '#' || format[i] == ' ' || format[i] == '0') {
			i++
		}
		for part := 0; part < 2 && i < len(format); part++ {
			if format[i] == '[' {
				for i < len(format) && format[i] != ']' {
					i++
				}
				i++
			}
			if i < len(format) && format[i] == '*' {
				if arg < len(args) {
					if n, ok := args[arg].(int); ok && (n > maxWidth || n < -maxWidth) {
						return errors.New("width or precision too large")
					}
				}
				arg++
				i++
			} else {
				j := i
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				if j > i {
					if n, err := strconv.Atoi(format[i:j]); err != nil || n > maxWidth {
						return errors.New("width or precision too large")
					}
				}
				i = j
			}
			if part == 0 && i < len(format) && format[i] == '.' {
				i++
				continue
			}
			break
		}
		if i < len(format) && format[i] != '%' {
			arg++
		}
	}
	return nil
}

// Errorf stops the call with the message, as Hugo stops the build.
func (f *fmtNS) Errorf(format string, a ...any) (string, error) {
	if err := checkFormat(format, a); err != nil {
		return "", err
	}
	return "", f.n.env().Error(fmt.Sprintf(format, a...))
}

// Erroridf is Errorf with an id (which Hugo lets a site ignore).
func (f *fmtNS) Erroridf(id, format string, a ...any) (string, error) { return f.Errorf(format, a...) }

// Warnf reports the message as a warning.
func (f *fmtNS) Warnf(format string, a ...any) (string, error) {
	if err := checkFormat(format, a); err != nil {
		return "", err
	}
	f.n.env().Warn(fmt.Sprintf(format, a...))
	return "", nil
}

// Warnidf is Warnf with an id.
func (f *fmtNS) Warnidf(id, format string, a ...any) (string, error) { return f.Warnf(format, a...) }
