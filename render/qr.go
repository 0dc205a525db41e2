package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cast"
	"rsc.io/qr"
)

// qrCall renders Hugo's qr shortcode as an inline SVG image of the same
// code: rsc.io/qr, the encoder Hugo uses, makes the modules for the text
// (the text argument, else the inner content) at the error correction
// level asked (low, medium, quartile, high), and each module is scale
// pixels wide with a quiet zone of four modules, as Hugo's PNG. An inline
// SVG needs no file and no request; alt becomes its accessible name,
// title its <title>, class and id its attributes. The twin shows the
// text.
func (st *state) qrCall(sc *shortcode) expansion {
	text := fmt.Sprint(or(sc.Get("text"), strings.TrimSpace(string(sc.Inner)), ""))
	if text == "" {
		st.issue(sc.line, "qr: the shortcode requires a \"text\" argument")
		return expansion{}
	}
	levels := map[string]qr.Level{"low": qr.L, "medium": qr.M, "quartile": qr.Q, "high": qr.H}
	level, ok := levels[fmt.Sprint(or(sc.Get("level"), "medium"))]
	if !ok {
		st.issue(sc.line, "qr: level must be one of low, medium, quartile, or high")
		return expansion{}
	}
	scale, err := cast.ToIntE(or(sc.Get("scale"), 4))
	if err != nil || scale < 2 || scale > 64 {
		st.issue(sc.line, "qr: scale must be an integer from 2 to 64")
		return expansion{}
	}
	code, err := qr.Encode(text, level)
	if err != nil {
		st.issue(sc.line, "qr: %v", err)
		return expansion{}
	}
	out := layout("qr", struct {
		Width            int
		Box              string
		Alt, Class, ID   any
		Title            any
		Light, Dark      string
		HasAlt, HasTitle bool
	}{
		Width: (code.Size + 8) * scale, Box: strconv.Itoa(code.Size + 8),
		Alt: empty(sc.Get("alt")), Class: empty(sc.Get("class")), ID: empty(sc.Get("id")), Title: empty(sc.Get("title")),
		Light: "M0 0h" + strconv.Itoa(code.Size+8) + "v" + strconv.Itoa(code.Size+8) + "H0z",
		Dark:  qrPath(code),
	})
	md := "QR code: " + text
	if strings.HasPrefix(text, "https://") || strings.HasPrefix(text, "http://") {
		md = "QR code: <" + text + ">"
	}
	return expansion{out: out, md: md}
}

// qrPath draws the dark modules as one path, a rectangle per run of
// dark modules in a row, offset by the quiet zone.
func qrPath(c *qr.Code) string {
	var b strings.Builder
	for y := 0; y < c.Size; y++ {
		for x := 0; x < c.Size; {
			if !c.Black(x, y) {
				x++
				continue
			}
			run := 1
			for x+run < c.Size && c.Black(x+run, y) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+4, y+4, run, run)
			x += run
		}
	}
	return b.String()
}
