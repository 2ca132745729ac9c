package ui

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"github.com/go-text/typesetting/font"

	"github.com/tablegames/ats/app"
	appmoney "github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/assets"
	"github.com/tablegames/ats/ui/look"
)

// translations reads one embedded translation file.
func translations(t *testing.T, name string) map[string]string {
	t.Helper()
	b, err := assets.Translations.ReadFile("translations/" + name)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// saidStrings is every string the screen translates: the literals ui/ passes to T (and those of
// a []string a range loop passes to T, the help screen's lines), the message keys the
// terminal's logic says to the player (msg.New, msg.Err, the cashier's say), and the names of
// bets, colours and rule 4.3's reasons the screen shows.
func saidStrings(t *testing.T) map[string]string {
	t.Helper()
	found := map[string]string{}
	fset := token.NewFileSet()
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			found[s] = fset.Position(lit.Pos()).String()
		}
	}
	// says reports whether a call says its first argument: T(…) in ui/, msg.New(…) and
	// msg.Err(…) anywhere, the cashier's c.say(…).
	says := func(n ast.Node) (*ast.CallExpr, bool) {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) == 0 {
			return nil, false
		}
		switch f := c.Fun.(type) {
		case *ast.Ident:
			return c, f.Name == "T" && len(c.Args) == 1
		case *ast.SelectorExpr:
			if x, ok := f.X.(*ast.Ident); ok && x.Name == "msg" {
				return c, f.Sel.Name == "New" || f.Sel.Name == "Err"
			}
			return c, f.Sel.Name == "say"
		}
		return nil, false
	}
	for _, f := range parseSources(t, fset, "*.go", "../app/*.go", "../app/cashier/*.go", "../app/msg/*.go") {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := says(n); ok {
				add(c.Args[0])
			}
			// for _, l := range []string{"…", …} { … T(l) … }
			if r, ok := n.(*ast.RangeStmt); ok {
				lits, ok := r.X.(*ast.CompositeLit)
				v, vok := r.Value.(*ast.Ident)
				if !ok || !vok {
					return true
				}
				passed := false
				ast.Inspect(r.Body, func(n ast.Node) bool {
					if c, ok := says(n); ok {
						if id, ok := c.Args[0].(*ast.Ident); ok && id.Name == v.Name {
							passed = true
						}
					}
					return true
				})
				if passed {
					for _, e := range lits.Elts {
						add(e)
					}
				}
			}
			return true
		})
	}
	for k := roulette.Straight; int(k) < roulette.NumKinds; k++ {
		found[k.String()] = "roulette.Kind"
	}
	for c := roulette.Tier; c < roulette.Neighbours; c++ {
		found[c.String()] = "roulette.Call"
	}
	for c := roulette.BallRed; c <= roulette.BallYellow; c++ {
		found[c.String()] = "roulette.BallColour"
	}
	for _, c := range []roulette.Colour{roulette.ColourRed, roulette.ColourBlack, roulette.ColourGreen} {
		found[c.String()] = "roulette.Colour (game records)"
	}
	for r := roulette.ReasonBelowMinimum; r.String() != r.Message(); r++ {
		found[r.Message()] = "roulette.Reason"
	}
	for _, st := range []string{"printed", "handpay", "printing", "ticket", "note"} {
		found[st] = "recall.Ticket.State (game records)"
	}
	return found
}

// Every string the screens translate is in the English file, and English and simplified
// Chinese have the same keys: a string missing from a language shows up in English there.
func TestTranslationsCoverEveryString(t *testing.T) {
	en, zh := translations(t, "en.json"), translations(t, "zh_Hans.json")
	strs := saidStrings(t)
	if len(strs) < 100 {
		t.Fatalf("found only %d strings the screen says: the scan is broken", len(strs))
	}
	for s, pos := range strs {
		if _, ok := en[s]; !ok {
			t.Errorf("%s: %q is not in en.json", pos, s)
		}
	}
	for k := range en {
		if _, ok := zh[k]; !ok {
			t.Errorf("%q is in en.json but not in zh_Hans.json", k)
		}
	}
	for k, v := range zh {
		if _, ok := en[k]; !ok {
			t.Errorf("%q is in zh_Hans.json but not in en.json", k)
		}
		if v == "" || v == k {
			t.Errorf("%q is not translated in zh_Hans.json", k)
		}
	}
}

// A player at a terminal whose system locale is simplified Chinese (zh_CN, as set on the
// cabinet) gets the Chinese screen, drawn with real glyphs. The locale is read when the
// process starts, so the check runs in a child process with that locale.
func TestChineseLocale(t *testing.T) {
	if os.Getenv("ATS_ZH_CHILD") == "1" {
		chineseChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChineseLocale$", "-test.v")
	cmd.Env = append(os.Environ(), "ATS_ZH_CHILD=1", "LANG=zh_CN.UTF-8", "LC_ALL=zh_CN.UTF-8", "LANGUAGE=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in a zh_CN locale: %v\n%s", err, out)
	}
}

func chineseChild(t *testing.T) {
	zh := translations(t, "zh_Hans.json")
	for k, v := range zh {
		if got := T(k); got != v {
			t.Errorf("T(%q) = %q in zh_CN, want %q", k, got, v)
		}
	}
	// The terminal's own messages are said in Chinese too, bets named in it.
	l := roulette.Layout{Wheel: roulette.SingleZero}
	sp, err := l.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	said := say(msg.New("%v: %s", roulette.Bet{Spot: sp}, msg.New(roulette.ReasonBelowMinimum.Message())))
	if want := "直注 17：低于此注最低限额：未下注"; said != want {
		t.Errorf("a refused straight-up is said %q, want %q", said, want)
	}
	if said := sayErr(app.ErrLocked); said != "停止下注：本局下注已结束" {
		t.Errorf("no more bets is said %q", said)
	}

	// Every character of the translation has a glyph, in the embedded Chinese font or in
	// Fyne's Latin one (packaging/gen-fonts.sh cuts the font to the translation).
	th := Theme()
	if pt, ok := th.(panelTheme); !ok {
		t.Fatalf("the kiosk's theme is %T, not the one clearing to the panels' colour", th)
	} else if _, ok := pt.Theme.(look.ChineseTheme); !ok {
		t.Fatalf("the theme in a zh_CN locale is %T, not the Chinese one", th)
	}
	faces := []*font.Face{}
	for _, r := range []fyne.Resource{assets.ChineseRegular, assets.ChineseBold} {
		f, err := font.ParseTTF(bytes.NewReader(r.Content()))
		if err != nil {
			t.Fatalf("%s: %v", r.Name(), err)
		}
		faces = append(faces, f)
	}
	// Fyne's shaper draws a space, digit or bracket inside Chinese text with the Chinese font,
	// so it must have every character of the translation and all of printable ASCII (the
	// arguments: amounts, numbers).
	var want []rune
	for _, v := range zh {
		want = append(want, []rune(v)...)
	}
	for r := rune(0x20); r < 0x7f; r++ {
		want = append(want, r)
	}
	// And the language button's names, each in its own script ("中文" on an English screen too):
	// a character missing here was drawn by a system font found on disk, where there is one —
	// 20 MB of the kiosk's heap for "文" (issue 18) — and as a missing-glyph box where not.
	for _, l := range languages {
		want = append(want, []rune(l.name)...)
	}
	// And the currency symbols before every amount of money (issue 18 point 9): "¥" of a
	// Chinese table's yuan is drawn with this font.
	for _, sym := range appmoney.Symbols() {
		want = append(want, []rune(sym)...)
	}
	for _, r := range want {
		for i, name := range []string{"regular", "bold"} {
			if !hasGlyph(faces[i], r) {
				t.Errorf("%q has no %s glyph in the embedded Chinese font: run packaging/gen-fonts.sh", r, name)
			}
		}
	}
	// And they draw: two different characters look different, where a missing glyph would
	// draw the same box (tofu) for both.
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(th)
	draw := func(s string) image.Image {
		txt := canvas.NewText(s, color.White)
		txt.TextSize = 40
		w := test.NewTempWindow(t, txt)
		w.SetPadded(false)
		w.Resize(fyne.NewSize(60, 60))
		return w.Canvas().Capture()
	}
	a, b, missing := draw("余"), draw("额"), draw("\U000F0000") // a private-use rune no font draws
	if sameImage(a, b) || sameImage(a, missing) {
		t.Fatal("Chinese characters draw as the missing-glyph box")
	}
}

func hasGlyph(f *font.Face, r rune) bool {
	_, ok := f.NominalGlyph(r)
	return ok || r == '\n'
}

func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}

// parseSources parses the Go files (not the tests) the glob patterns match, into fset.
func parseSources(t *testing.T, fset *token.FileSet, patterns ...string) []*ast.File {
	t.Helper()
	var files []*ast.File
	for _, pattern := range patterns {
		names, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	return files
}
