package main

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func decodeTestdata(t *testing.T, name string) image.Image {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// The limits screen (the real window's screenshots, step 1 of the journey), in Chinese and
// English at 1280×800 and English at 1920×1080: its button is white words on blue, 16 px high
// (设定这些限额), and the rows' names stand beside rows of bold choices, one bright yellow (Time
// limit and 禁玩期 were read neither in the box nor in its bands). The card read must find the
// button inside it, where the player's finger goes, and every row's name.
func TestCardReadFindsTheLimitsScreensButtonAndRows(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (packaging/setup.sh installs it)")
	}
	for _, c := range []struct {
		lang, languages, shot string
		button                image.Rectangle
	}{
		{"zh_Hans", "chi_sim+eng", "cards-limits-1280x800-zh.png", image.Rect(421, 385, 553, 424)},
		{"en", "eng", "cards-limits-1280x800-en.png", image.Rect(405, 377, 571, 415)},
		// At 1920×1080 the box is wider than the words: its left sixth cut the first choice.
		{"en", "eng", "cards-limits-1920x1080-en.png", image.Rect(720, 380, 895, 425)},
	} {
		tr, err := loadTranslation(filepath.Join("..", "..", "assets", "translations"), c.lang)
		if err != nil {
			t.Fatal(err)
		}
		r, err := readCardScreen(decodeTestdata(t, c.shot), c.languages, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"SET YOUR LIMITS", "Loss limit", "Time limit", "Bar period"} {
			if _, _, ok := r.find(tr.T(w)); !ok {
				t.Errorf("%s: %s (%s) not read; read:\n%s", c.lang, w, tr.T(w), r.summary())
			}
		}
		_, ws, ok := r.find(tr.T("Set these limits"))
		if !ok {
			t.Fatalf("%s: no line reads %s; read:\n%s", c.lang, tr.T("Set these limits"), r.summary())
		}
		if p := union(ws).centre(); !image.Pt(p.X, p.Y).In(c.button) {
			t.Errorf("%s: %s read at %v, outside its button %v", c.lang, tr.T("Set these limits"), p, c.button)
		}
	}
}

// Tesseract reads a Chinese line's full-width colon as ASCII (您的亏损限额 A$20.00 已达到 : 禁止游戏
// 直至 …, step 1 of carded-stops): the words of the translation, full-width, must match it.
func TestFoldMatchesFullWidthPunctuationAsTesseractReadsIt(t *testing.T) {
	read := reading{lines: []line{{{Text: "您的亏损限额"}, {Text: "A$20.00"}, {Text: "已达到"}, {Text: ":"}, {Text: "禁止游戏直至"}, {Text: "2026-11-28"}}}}
	if _, _, ok := read.find(literal("您的亏损限额 %s 已达到：禁止游戏直至 %s"), "20.00"); !ok {
		t.Errorf("the limit reached, read with an ASCII colon, was not found")
	}
	if fold("需要倾诉？") != fold("需要倾诉?") {
		t.Errorf("a full-width question mark is not its ASCII twin")
	}
}

// The side panel once the limits are set (step 2 of the journey), in Chinese at 1280×800 and
// English at 1920×1080: each row of the strip is its name on the left and its figure on the
// right, which the whole screen's sparse read gave as two lines (the journey failed: no line
// read 剩余时间 … 30m); at 1920×1080 the panel read as one block lost the balance's A$500.00. The
// card read reads the panel alone, a row a line; and the wagering period's countdown.
func TestCardReadReadsTheStripsRowsOnOneLine(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (packaging/setup.sh installs it)")
	}
	for _, c := range []struct {
		lang, languages, shot string
		countdown             int
	}{
		{"zh_Hans", "chi_sim+eng", "cards-strip-1280x800-zh.png", 12},
		{"en", "eng", "cards-strip-1920x1080-en.png", 8},
	} {
		tr, err := loadTranslation(filepath.Join("..", "..", "assets", "translations"), c.lang)
		if err != nil {
			t.Fatal(err)
		}
		r, err := readCardScreen(decodeTestdata(t, c.shot), c.languages, nil)
		if err != nil {
			t.Fatal(err)
		}
		if missing, _ := r.check([][]string{{tr.T("Loss left"), "50.00"}, {tr.T("Time left"), "30m"}, {tr.T("Time played")}, {"500.00"}}, nil); len(missing) > 0 {
			t.Errorf("%s: missing %q; read:\n%s", c.shot, missing, r.summary())
		}
		if _, stale := r.check(nil, []string{tr.T("YOUR LIMITS")}); len(stale) > 0 {
			t.Errorf("%s: the limits screen read on a screen without it; read:\n%s", c.shot, r.summary())
		}
		if n := secondsLeft(r, tr); n != c.countdown {
			t.Errorf("%s: the countdown read as %d, want %d; read:\n%s", c.shot, n, c.countdown, r.summary())
		}
	}
}

// A format's words whatever the amounts: the part before the amount is empty where the
// language puts the amount first, and an empty part is found on every line (a check that
// cannot fail).
func TestLiteralIsAFormatsLongestWordsNeverEmpty(t *testing.T) {
	for format, want := range map[string]string{
		"Play may resume in %s":      "Play may resume in",
		"%s 后可恢复游戏":                  "后可恢复游戏",
		"您的亏损限额 %s 已达到：禁止游戏直至 %s":    "已达到：禁止游戏直至",
		"本次输赢为 %s。":                  "本次输赢为",
		"Your session result is %s.": "Your session result is",
	} {
		if got := literal(format); got != want {
			t.Errorf("literal(%q) = %q, want %q", format, got, want)
		}
	}
}
