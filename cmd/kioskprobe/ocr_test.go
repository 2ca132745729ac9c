package main

import (
	"image"
	"image/color"
	"image/draw"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// A tsv as tesseract 5 writes it: a page, a block, two lines; the second line's words in a band
// read 300 px down the screen.
const sampleTSV = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
	"1\t1\t0\t0\t0\t0\t0\t0\t1920\t110\t-1\t\n" +
	"5\t1\t1\t1\t1\t1\t100\t10\t60\t20\t95.1\tCash\n" +
	"5\t1\t1\t1\t1\t2\t170\t10\t40\t20\t95.1\tout\n" +
	"5\t1\t1\t1\t1\t3\t220\t10\t120\t20\t90.0\tAS500.00?\n" +
	"5\t1\t1\t1\t2\t1\t100\t50\t80\t20\t91.0\tKeep\n" +
	"5\t1\t1\t1\t2\t2\t190\t50\t90\t20\t91.0\tplaying\n"

func TestParseTSVGroupsLinesAndAddsTheBandsPlace(t *testing.T) {
	lines, err := parseTSV([]byte(sampleTSV), []int{300})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0].text() != "Cash out AS500.00?" || lines[1].text() != "Keep playing" {
		t.Fatalf("lines %v", lines)
	}
	if lines[1][0].Y != 350 {
		t.Errorf("the band's words are at y %d, want 350 (50 in the band + the band's 300)", lines[1][0].Y)
	}
	r := reading{lines: lines}
	if _, _, ok := r.find("Cash out", "500.00"); !ok {
		t.Error("the prompt and its amount on one line were not found")
	}
	if _, _, ok := r.find("Cash out", "playing"); ok {
		t.Error("words of two lines were found as one line")
	}
	_, ws, ok := r.find("keep playing")
	if !ok || len(ws) != 2 {
		t.Fatalf("keep playing: %v %v", ws, ok)
	}
	if c := union(ws).centre(); c != (point{190, 360}) {
		t.Errorf("tap at %v, want the two words' centre 190,360", c)
	}
}

func TestParseTSVRefusesAMangledRow(t *testing.T) {
	for _, bad := range []string{"5\t1\t1\t1\t1\t1\t100\t10\n", "5\t1\t1\t1\t1\tx\t100\t10\t60\t20\t95\tCash\n"} {
		if _, err := parseTSV([]byte(bad), nil); err == nil {
			t.Errorf("%q was read without an error", bad)
		}
	}
}

// The reader on a real picture of words: a prompt drawn the way a screen would (Go's font, white
// on dark grey), read back by tesseract, and the amount found on the prompt's line.
func TestOCRReadsAPromptsAmountOnItsLine(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (packaging/setup.sh installs it)")
	}
	img := image.NewRGBA(image.Rect(0, 0, 900, 240))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{0x20, 0x20, 0x20, 0xff}), image.Point{}, draw.Src)
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 36, DPI: 72})
	if err != nil {
		t.Fatal(err)
	}
	d := font.Drawer{Dst: img, Src: image.White, Face: face}
	for _, l := range []struct {
		y    int
		text string
	}{{80, "Cash out A$495.00? A ticket is printed"}, {180, "Keep playing"}} {
		d.Dot = fixed.P(40, l.y)
		d.DrawString(l.text)
	}
	name := filepath.Join(t.TempDir(), "prompt.png")
	if err := writeImage(name, img); err != nil {
		t.Fatal(err)
	}
	r, err := ocr(name, "eng", 110, nil)
	if err != nil {
		t.Fatal(err)
	}
	if missing, _ := r.check([][]string{{"Cash out", "495.00"}, {"Keep playing"}}, nil); len(missing) > 0 {
		t.Fatalf("missing %q; read:\n%s", missing, r.summary())
	}
	if _, stale := r.check(nil, []string{"Keep playing"}); len(stale) != 1 {
		t.Error("a word on the picture was not reported as still there")
	}
	if missing, _ := r.check([][]string{{"Cash out", "Keep playing"}}, nil); len(missing) != 1 {
		t.Error("words of two lines were read as one line")
	}
}

// The console's No more bets: light words on an orange plate, beside blue and red plates on a
// dark green screen (the real window's screenshot at 1920×1080, step 9 of `kioskprobe
// console`). Neither the page read nor the bands read them: tesseract's one threshold for the
// whole picture falls between the plates' colours, not between a plate and its words. The
// reader must find the button, where the dealer's finger goes, and tell it from No spin.
func TestOCRReadsLightWordsOnAColouredPlate(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (packaging/setup.sh installs it)")
	}
	r, err := ocr(filepath.Join("testdata", "console-no-more-bets.png"), "eng", 110, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, ws, ok := r.find("No more bets")
	if !ok {
		t.Fatalf("no line reads No more bets; read:\n%s", r.summary())
	}
	// The plate is at x 1492–1914, y 183–255 on the screen.
	if c := union(ws).centre(); c.X < 1492 || c.X > 1914 || c.Y < 183 || c.Y > 255 {
		t.Errorf("No more bets read at %v, outside its button", c)
	}
}
