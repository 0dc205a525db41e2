package render

import (
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"folio/internal/hugotest"
)

// The qr shortcode: Hugo writes a PNG file, folio an inline SVG. The
// oracle compares the codes themselves: every module of folio's SVG is
// the module of Hugo's PNG at the same place, so the image holds the same
// text. Hugo's output (its HTML and PNG files) is committed under
// testdata/oracle/qr/hugo; TestOracleQRHugo checks it against Hugo where
// Hugo is installed (-update rewrites it).

var qrDir = filepath.Join("testdata", "oracle", "qr")

func TestOracleQRHugo(t *testing.T) {
	bin := hugotest.Binary(t)
	out := t.TempDir()
	cmd := exec.Command(bin, "--quiet", "--source", filepath.Join(qrDir, "site"), "--destination", out, "--cacheDir", t.TempDir())
	cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, msg)
	}
	html, err := os.ReadFile(filepath.Join(out, "posts", "codes", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	oracleGolden(t, filepath.Join(qrDir, "hugo", "codes.html"), string(html))
	for _, m := range qrImg.FindAllStringSubmatch(string(html), -1) {
		data, err := os.ReadFile(filepath.Join(out, m[1]))
		if err != nil {
			t.Fatal(err)
		}
		oracleGolden(t, filepath.Join(qrDir, "hugo", m[1]), string(data))
	}
}

var (
	qrImg   = regexp.MustCompile(`<img src="/(qr_[0-9a-f]+\.png)" width="(\d+)"`)
	qrSVG   = regexp.MustCompile(`<svg [^>]*width="(\d+)"[^>]*viewBox="0 0 (\d+) \d+"[^>]*>.*?<path fill="#000" d="([^"]*)"/></svg>`)
	qrRect  = regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-\d+z`)
	qrAttrs = regexp.MustCompile(`<svg [^>]*aria-label="A greeting" class="qr" id="greet"><title>Greeting</title>`)
)

// TestQRMatchesHugo renders the fixture's calls and compares each SVG's
// modules with the modules of Hugo's PNG for the same call.
func TestQRMatchesHugo(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(qrDir, "site", "content", "posts", "codes.md"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)[strings.Index(string(src)[3:], "---")+7:]
	got := renderBody(t, body)
	if got.Issues != nil {
		t.Fatalf("issues: %v", got.Issues)
	}
	want, err := os.ReadFile(filepath.Join(qrDir, "hugo", "codes.html"))
	if err != nil {
		t.Fatalf("%v (run TestOracleQRHugo with -update where Hugo is installed)", err)
	}
	imgs := qrImg.FindAllStringSubmatch(string(want), -1)
	svgs := qrSVG.FindAllStringSubmatch(string(got.HTML), -1)
	if len(imgs) != 5 || len(svgs) != len(imgs) {
		t.Fatalf("%d images from Hugo, %d SVGs from folio:\n%s", len(imgs), len(svgs), got.HTML)
	}
	if !qrAttrs.MatchString(string(got.HTML)) {
		t.Errorf("alt, class, id and title are not on the SVG: %s", got.HTML)
	}
	for i, img := range imgs {
		if img[2] != svgs[i][1] {
			t.Errorf("code %d: width %s, Hugo's %s", i, svgs[i][1], img[2])
		}
		box, _ := strconv.Atoi(svgs[i][2])
		ours := make([][]bool, box)
		for y := range ours {
			ours[y] = make([]bool, box)
		}
		for _, r := range qrRect.FindAllStringSubmatch(svgs[i][3], -1) {
			x, _ := strconv.Atoi(r[1])
			y, _ := strconv.Atoi(r[2])
			n, _ := strconv.Atoi(r[3])
			for k := range n {
				ours[y][x+k] = true
			}
		}
		f, err := os.Open(filepath.Join(qrDir, "hugo", img[1]))
		if err != nil {
			t.Fatal(err)
		}
		pic, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		scale := pic.Bounds().Dx() / box
		diff := 0
		for y := range box {
			for x := range box {
				r, _, _, _ := pic.At(x*scale+scale/2, y*scale+scale/2).RGBA()
				if (r < 0x8000) != ours[y][x] {
					diff++
				}
			}
		}
		if diff != 0 {
			t.Errorf("code %d (%s): %d of %d modules differ from Hugo's", i, img[1], diff, box*box)
		}
	}
	if !strings.Contains(got.Markdown, "QR code: <https://gohugo.io>") {
		t.Errorf("twin: %s", got.Markdown)
	}
}
