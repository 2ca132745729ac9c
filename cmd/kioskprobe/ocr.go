package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Reading the screen back as a player does (issue 32): Debian's tesseract, two reads merged
// (see /work/shared/READING-THE-SCREEN.md). A whole-page sparse read (--psm 11) finds the felt's
// numbers and the panels' amounts but misses dark text on coloured buttons; horizontal bands
// read as uniform blocks (--psm 6) find the buttons but garble the felt. The words of both are
// kept, each with its box in screen pixels, grouped in the lines tesseract found.

// word is one word read, with its box in the screenshot's pixels.
type word struct {
	Text       string
	X, Y, W, H int
}

func (w word) centre() point { return point{w.X + w.W/2, w.Y + w.H/2} }

// line is the words tesseract put on one line, left to right.
type line []word

// text is the line's words joined by single spaces.
func (l line) text() string {
	s := make([]string, len(l))
	for i, w := range l {
		s[i] = w.Text
	}
	return strings.Join(s, " ")
}

// reading is what one screenshot says: the lines of every read.
type reading struct {
	lines []line
}

// parseTSV reads tesseract's tsv output (level, page, block, paragraph, line, word, left, top,
// width, height, confidence, text): the words (level 5) with text, grouped by page, block,
// paragraph and line. yOff[page-1], if given, is added to the page's tops (a band's place on the
// screen).
func parseTSV(b []byte, yOff []int) ([]line, error) {
	places := make([]image.Point, len(yOff))
	for i, y := range yOff {
		places[i] = image.Pt(0, y)
	}
	return parseTSVAt(b, places)
}

// parseTSVAt is parseTSV for pages cut from anywhere on the screen: each word's box is brought
// back to the screen's pixels by its page's top left corner there (places[page-1]).
func parseTSVAt(b []byte, places []image.Point) ([]line, error) {
	type key struct{ page, block, par, line int }
	var order []key
	byKey := map[key]line{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	first := true
	for sc.Scan() {
		row := strings.Split(sc.Text(), "\t")
		if first {
			first = false
			if len(row) > 0 && row[0] == "level" {
				continue
			}
		}
		if len(row) < 12 {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			return nil, fmt.Errorf("tesseract tsv: a row of %d columns, want 12: %q", len(row), sc.Text())
		}
		n := make([]int, 10)
		for i := range n {
			v, err := strconv.Atoi(row[i])
			if err != nil {
				return nil, fmt.Errorf("tesseract tsv: column %d is %q, not a number", i+1, row[i])
			}
			n[i] = v
		}
		text := strings.TrimSpace(row[11])
		if n[0] != 5 || text == "" {
			continue
		}
		k := key{n[1], n[2], n[3], n[4]}
		var at image.Point
		if p := n[1] - 1; p >= 0 && p < len(places) {
			at = places[p]
		}
		if _, seen := byKey[k]; !seen {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], word{Text: text, X: at.X + n[6], Y: at.Y + n[7], W: n[8], H: n[9]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out := make([]line, 0, len(order))
	for _, k := range order {
		out = append(out, byKey[k])
	}
	return out, nil
}

// fold is s as matched: lower case, without spaces (tesseract spaces Chinese characters
// apart, and splits or joins Latin words around punctuation), full-width forms as their ASCII
// twins. Amounts are matched by their digits: a currency symbol is read unreliably ("A$" as
// "AS").
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsSpace(r) {
			continue
		}
		if r >= '！' && r <= '～' {
			// A full-width form (Chinese text's ：？！): tesseract reads it as its ASCII twin.
			r -= '！' - '!'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// find returns the first line containing every one of needles (compared folded), and the
// words of it that hold the first needle (their union is where to tap).
func (r reading) find(needles ...string) (line, []word, bool) {
	for _, l := range r.lines {
		t := fold(l.text())
		all := true
		for _, n := range needles {
			if !strings.Contains(t, fold(n)) {
				all = false
				break
			}
		}
		if all {
			return l, l.holding(fold(needles[0])), true
		}
	}
	return nil, nil, false
}

// holding is the shortest run of the line's words whose folded text holds needle.
func (l line) holding(needle string) []word {
	var best []word
	for i := range l {
		s := ""
		for j := i; j < len(l); j++ {
			s += fold(l[j].Text)
			if strings.Contains(s, needle) {
				if best == nil || j-i+1 < len(best) {
					best = l[i : j+1]
				}
				break
			}
		}
	}
	return best
}

// union is the box around ws.
func union(ws []word) word {
	if len(ws) == 0 {
		return word{}
	}
	u := ws[0]
	for _, w := range ws[1:] {
		x1, y1 := max(u.X+u.W, w.X+w.W), max(u.Y+u.H, w.Y+w.H)
		u.X, u.Y = min(u.X, w.X), min(u.Y, w.Y)
		u.W, u.H = x1-u.X, y1-u.Y
	}
	u.Text = line(ws).text()
	return u
}

// summary is every line read, one a row, for a failure's message.
func (r reading) summary() string {
	var b strings.Builder
	for _, l := range r.lines {
		if t := strings.TrimSpace(l.text()); t != "" {
			u := union(l)
			fmt.Fprintf(&b, "  [%d,%d] %s\n", u.X, u.Y, t)
		}
	}
	return b.String()
}

// ocr reads the screenshot at path in languages (tesseract's -l, e.g. "eng" or "chi_sim+eng"):
// the whole page sparse, then the page with light words made dark (lightWordsDark), then — unless enough (if given) is content with that — bands of band
// pixels stepped by half that, all bands in one tesseract run (a list of images), read as blocks
// and then as sparse text, and merges the lines of every read. (Each read costs seconds on a loaded machine; the bands are for what the page
// read misses.)
func ocr(path, languages string, band int, enough func(reading) bool) (reading, error) {
	f, err := os.Open(path)
	if err != nil {
		return reading{}, err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return reading{}, fmt.Errorf("screenshot %s: %w", path, err)
	}
	if enough != nil && enough(reading{}) {
		return reading{}, nil // nothing to read for (a step whose do read its own words)
	}
	page, err := tesseract(path, languages, "11")
	if err != nil {
		return reading{}, err
	}
	lines, err := parseTSV(page, nil)
	if err != nil {
		return reading{}, err
	}
	if enough != nil && enough(reading{lines: lines}) {
		return reading{lines: lines}, nil
	}
	dir, err := os.MkdirTemp("", "journey-bands")
	if err != nil {
		return reading{}, err
	}
	defer os.RemoveAll(dir)
	// Light words on plates of several colours (the console's blue, orange, red and grey buttons
	// on its dark green): tesseract binarises a picture with one threshold, which falls between
	// the plates rather than between a plate and its words, and reads nothing of them. The page
	// again with every pixel's darkest channel, negated, makes light words dark on a light plate
	// whatever the plate's hue (white stays white in every channel; a saturated plate has one
	// dark channel).
	inv := filepath.Join(dir, "light-words-dark.png")
	if err := writeImage(inv, lightWordsDark(img)); err != nil {
		return reading{}, err
	}
	darkened, err := tesseract(inv, languages, "11")
	if err != nil {
		return reading{}, err
	}
	more, err := parseTSV(darkened, nil)
	if err != nil {
		return reading{}, err
	}
	lines = append(lines, more...)
	if enough != nil && enough(reading{lines: lines}) {
		return reading{lines: lines}, nil
	}
	var list strings.Builder
	var offs []int
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		return reading{}, errors.New("screenshot: an image that cannot be cut into bands")
	}
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y += band / 2 {
		name := filepath.Join(dir, fmt.Sprintf("band-%04d.png", y))
		if err := writeImage(name, sub.SubImage(image.Rect(bnd.Min.X, y, bnd.Max.X, min(y+band, bnd.Max.Y)))); err != nil {
			return reading{}, err
		}
		list.WriteString(name + "\n")
		offs = append(offs, y)
		if y+band >= bnd.Max.Y {
			break
		}
	}
	listFile := filepath.Join(dir, "bands.txt")
	if err := os.WriteFile(listFile, []byte(list.String()), 0o600); err != nil {
		return reading{}, err
	}
	// The bands as uniform blocks, then — if still short — as sparse text: a light button label
	// beside the felt's numbers (Keep playing over design L's racetrack at 1280×800) came back
	// from the sparse read of its band only.
	for _, psm := range []string{"6", "11"} {
		bands, err := tesseract(listFile, languages, psm)
		if err != nil {
			return reading{}, err
		}
		more, err := parseTSV(bands, offs)
		if err != nil {
			return reading{}, err
		}
		lines = append(lines, more...)
		if enough != nil && enough(reading{lines: lines}) {
			break
		}
	}
	return reading{lines: lines}, nil
}

// lightWordsDark is img in grey, each pixel 255 less its darkest channel: light words dark on
// a light ground whatever the colour of the plate they are on.
func lightWordsDark(img image.Image) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			out.SetGray(x, y, color.Gray{Y: 255 - uint8(min(r, g, bl)>>8)})
		}
	}
	return out
}

func writeImage(name string, img image.Image) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tesseract runs tesseract on in with page segmentation mode psm and returns its tsv.
func tesseract(in, languages, psm string) ([]byte, error) {
	cmd := exec.Command("tesseract", in, "stdout", "-l", languages, "--psm", psm, "tsv")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("tesseract %s: %w: %s", in, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// plates are the boxes of the regions of exactly colour c in img (4-connected, sampled every
// other pixel), at least min pixels across each way: a button's plate. Tesseract misses dark
// words on a coloured plate in a whole band (Cash out's orange), but reads them in the plate's
// own crop, so a journey finds such a button by its colour and checks it by its words.
func plates(img image.Image, c color.RGBA, minSide int) []image.Rectangle {
	b := img.Bounds()
	const step = 2
	w, h := b.Dx()/step, b.Dy()/step
	on := make([]bool, w*h)
	for y := range h {
		for x := range w {
			r, g, bl, _ := img.At(b.Min.X+x*step, b.Min.Y+y*step).RGBA()
			on[y*w+x] = uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B
		}
	}
	seen := make([]bool, w*h)
	var out []image.Rectangle
	for i := range on {
		if !on[i] || seen[i] {
			continue
		}
		box := image.Rect(i%w, i/w, i%w+1, i/w+1)
		queue := []int{i}
		seen[i] = true
		for len(queue) > 0 {
			j := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			x, y := j%w, j/w
			box = box.Union(image.Rect(x, y, x+1, y+1))
			for _, n := range [][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if n[0] < 0 || n[1] < 0 || n[0] >= w || n[1] >= h {
					continue
				}
				k := n[1]*w + n[0]
				if on[k] && !seen[k] {
					seen[k] = true
					queue = append(queue, k)
				}
			}
		}
		r := image.Rect(b.Min.X+box.Min.X*step, b.Min.Y+box.Min.Y*step, b.Min.X+box.Max.X*step, b.Min.Y+box.Max.Y*step)
		if r.Dx() >= minSide && r.Dy() >= minSide {
			out = append(out, r)
		}
	}
	return out
}

// shift moves every word read by d: a crop's words placed back on the screen.
func (r reading) shift(d image.Point) {
	for _, l := range r.lines {
		for i := range l {
			l[i].X += d.X
			l[i].Y += d.Y
		}
	}
}

// decodePNG reads the PNG image at path.
func decodePNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("screenshot %s: %w", path, err)
	}
	return img, nil
}

// cropTo writes the part r of the image at path to out.
func cropTo(path string, r image.Rectangle, out string) error {
	img, err := decodePNG(path)
	if err != nil {
		return err
	}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		return errors.New("screenshot: an image that cannot be cut")
	}
	return writeImage(out, sub.SubImage(r.Intersect(img.Bounds())))
}

// readCrop reads the part r of the screenshot at path as one line of words (--psm 7).
func readCrop(path string, r image.Rectangle, languages string) (string, error) {
	name := path + ".crop.png"
	defer os.Remove(name)
	if err := cropTo(path, r, name); err != nil {
		return "", err
	}
	cmd := exec.Command("tesseract", name, "stdout", "-l", languages, "--psm", "7")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("tesseract %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// crop is a part of a screenshot read on its own (readCrops): a card screen's box, a side
// panel. A part read alone is read better and sooner than the whole screen: its words are
// not garbled by the felt beside them, and the reader has a fraction of the pixels to look at.
type crop struct {
	r    image.Rectangle // on the screen
	dark bool            // read as lightWordsDark: light words on a coloured plate
}

// readCrops reads the crops of img in one tesseract run (a list of images: the language model
// is loaded once) as page segmentation mode psm, and returns the lines read with their words'
// boxes in the screen's pixels.
func readCrops(img image.Image, crops []crop, languages, psm string) ([]line, error) {
	if len(crops) == 0 {
		return nil, nil
	}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		return nil, errors.New("screenshot: an image that cannot be cut")
	}
	dir, err := os.MkdirTemp("", "journey-crops")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var list strings.Builder
	places := make([]image.Point, 0, len(crops))
	for i, c := range crops {
		r := c.r.Intersect(img.Bounds())
		if r.Empty() {
			return nil, fmt.Errorf("crop %v is off the screen %v", c.r, img.Bounds())
		}
		var part image.Image = sub.SubImage(r)
		if c.dark {
			part = lightWordsDark(part)
		}
		name := filepath.Join(dir, fmt.Sprintf("crop-%02d.png", i))
		if err := writeImage(name, part); err != nil {
			return nil, err
		}
		list.WriteString(name + "\n")
		places = append(places, r.Min)
	}
	listFile := filepath.Join(dir, "crops.txt")
	if err := os.WriteFile(listFile, []byte(list.String()), 0o600); err != nil {
		return nil, err
	}
	out, err := tesseract(listFile, languages, psm)
	if err != nil {
		return nil, err
	}
	return parseTSVAt(out, places)
}
