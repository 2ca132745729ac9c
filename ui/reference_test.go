package ui

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/app/clock/clocktest"

	"github.com/tablegames/ats/app/table"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// The reference renders of Diagrams A, L and U live beside the designs' data, in diagrams/, and
// are regenerated with
//
//	go test ./ui -run TestReferenceRenders -update     (or UPDATE_REFERENCE=1)
var updateReference = flag.Bool("update", false, "rewrite the reference renders in diagrams/reference")

const referenceDir = "../diagrams/reference"

// referenceTolerance is the largest difference, per colour channel out of 255, a pixel may show
// against its reference. Rendering is deterministic (embedded fonts, fixed clock and data, the
// software painter): on one machine two runs give the same bytes. Antialiased edges are computed
// in floating point, though, and a compiler that fuses multiply-adds (arm64, unlike amd64) may
// round an edge pixel's coverage one or two levels apart; any real change to the screen moves
// pixels by far more than that.
const referenceTolerance = 2

// darkTheme is Fyne's default theme in its dark variant, whatever the machine's preference:
// what the kiosk looks like, independent of the test app's own theme.
type darkTheme struct{ fyne.Theme }

func (d darkTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return d.Theme.Color(n, theme.VariantDark)
}

// referenceHistory is a fixed run of outcomes, most recent first, with a zero in it.
func referenceHistory(w roulette.Wheel) []table.Outcome {
	nums := []roulette.Number{17, 32, 0, 5, 26, 11, 17, 36, 2, 19, 8, 23}
	if w == roulette.DoubleZero {
		nums[5] = roulette.DoubleZeroNumber
	}
	h := make([]table.Outcome, len(nums))
	for i, n := range nums {
		h[i] = table.Outcome{RoundID: fmt.Sprintf("R%d", 41-i), Number: n, At: t0.Add(-time.Duration(i+1) * time.Minute)}
	}
	return h
}

// slipOf is an acknowledged slip of straight-up and outside bets.
func slipOf(round string, bets ...table.SlipBet) *table.SlipAck {
	ack := &table.SlipAck{RoundID: round, Version: 1, Bets: bets}
	for _, b := range bets {
		ack.Results = append(ack.Results, table.BetResult{Accepted: b.Amount})
		ack.Total += b.Amount
	}
	return ack
}

func inside(t *testing.T, l roulette.Layout, k roulette.Kind, amount int64, ns ...roulette.Number) table.SlipBet {
	t.Helper()
	sp, err := l.Inside(k, ns)
	if err != nil {
		t.Fatal(err)
	}
	return table.SlipBet{Bet: roulette.Bet{Spot: sp}, Amount: amount}
}

func outside(t *testing.T, l roulette.Layout, k roulette.Kind, which int, amount int64) table.SlipBet {
	t.Helper()
	sp, err := l.Outside(k, which)
	if err != nil {
		t.Fatal(err)
	}
	return table.SlipBet{Bet: roulette.Bet{Spot: sp}, Amount: amount}
}

type referenceCase struct {
	file   string
	design diagrams.Design
	layout roulette.Layout
	snap   func(t *testing.T, l roulette.Layout) table.Snapshot
	// size is the screen's (zero: 1920×1080); kiosk offers the language button, as the kiosk
	// always does: it is the widest row's last button at 1280×800.
	size  fyne.Size
	kiosk bool
}

func referenceCases() []referenceCase {
	single := roulette.Layout{Wheel: roulette.SingleZero}
	crown := roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.CrownRapid}
	star := roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.Star}
	vw := roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.CrownVW}
	asian := roulette.Layout{Wheel: roulette.SingleZero, Asian: roulette.DefaultAsianGroups(roulette.SingleZero)}
	wagering := func(left time.Duration, bets func(*testing.T, roulette.Layout) []table.SlipBet) func(*testing.T, roulette.Layout) table.Snapshot {
		return func(t *testing.T, l roulette.Layout) table.Snapshot {
			return table.Snapshot{
				Config: table.TableConfig{Layout: l, Chips: []int64{100, 500, 2500, 10000}, Warning: 5 * time.Second},
				Phase:  table.PhaseWagering, RoundID: "R42", Deadline: t0.Add(left),
				Limits: testLimits, Balance: 100000, AccountOpen: true, History: referenceHistory(l.Wheel),
				Slip: slipOf("R42", bets(t, l)...),
			}
		}
	}
	return []referenceCase{
		{"a_single_zero_wagering.png", diagrams.DiagramA, single, wagering(12*time.Second, func(t *testing.T, l roulette.Layout) []table.SlipBet {
			return []table.SlipBet{
				inside(t, l, roulette.Straight, 2500, 17), inside(t, l, roulette.Split, 100, 17, 20),
				inside(t, l, roulette.Corner, 500, 1, 2, 4, 5), inside(t, l, roulette.Straight, 100, 0),
				outside(t, l, roulette.Red, 0, 10000), outside(t, l, roulette.Dozen, 2, 500),
			}
		}), fyne.Size{}, false},
		{"a_double_zero_wagering.png", diagrams.DiagramA, crown, wagering(12*time.Second, func(t *testing.T, l roulette.Layout) []table.SlipBet {
			return []table.SlipBet{
				inside(t, l, roulette.Straight, 100, roulette.DoubleZeroNumber), inside(t, l, roulette.Split, 500, 0, roulette.DoubleZeroNumber),
				inside(t, l, roulette.Straight, 2500, 28), outside(t, l, roulette.Column, 3, 1000),
			}
		}), fyne.Size{}, false},
		// The small kiosk screen (issue 18, point 11) on both wheels, as the kiosk shows it.
		{file: "a_single_zero_wagering_1280.png", design: diagrams.DiagramA, layout: single, snap: wagering(12*time.Second, func(t *testing.T, l roulette.Layout) []table.SlipBet {
			return []table.SlipBet{
				inside(t, l, roulette.Straight, 2500, 17), inside(t, l, roulette.Corner, 500, 1, 2, 4, 5),
				outside(t, l, roulette.Red, 0, 10000), outside(t, l, roulette.Dozen, 2, 500),
				{Bet: roulette.Bet{Call: roulette.Voisins}, Amount: 900},
			}
		}), size: fyne.NewSize(1280, 800), kiosk: true},
		{file: "a_double_zero_wagering_1280.png", design: diagrams.DiagramA, layout: crown, snap: wagering(12*time.Second, func(t *testing.T, l roulette.Layout) []table.SlipBet {
			return []table.SlipBet{
				inside(t, l, roulette.Straight, 100, roulette.DoubleZeroNumber), inside(t, l, roulette.Split, 500, 0, roulette.DoubleZeroNumber),
				inside(t, l, roulette.Straight, 2500, 28), outside(t, l, roulette.Column, 3, 1000),
			}
		}), size: fyne.NewSize(1280, 800), kiosk: true},
		{"a_double_zero_star_closing.png", diagrams.DiagramA, star, wagering(4*time.Second, func(t *testing.T, l roulette.Layout) []table.SlipBet {
			return []table.SlipBet{inside(t, l, roulette.Straight, 500, roulette.DoubleZeroNumber), outside(t, l, roulette.Black, 0, 2500)}
		}), fyne.Size{}, false},
		// Crown Roulette's Diagrams V/W (000 §8.4.1): the First Five in a box of its own.
		{"a_double_zero_crown_vw_wagering.png", diagrams.DiagramA, vw, wagering(12*time.Second, func(t *testing.T, l roulette.Layout) []table.SlipBet {
			return []table.SlipBet{
				inside(t, l, roulette.FiveLine, 1000, 0, roulette.DoubleZeroNumber, 1, 2, 3), inside(t, l, roulette.Split, 500, 0, roulette.DoubleZeroNumber),
				inside(t, l, roulette.Straight, 2500, 28), outside(t, l, roulette.Dozen, 1, 500),
			}
		}), fyne.Size{}, false},
		{"l_lucky_ball.png", diagrams.DiagramL, single, func(t *testing.T, l roulette.Layout) table.Snapshot {
			return table.Snapshot{
				Config: table.TableConfig{Layout: l, Chips: []int64{100, 500, 2500, 10000}, Warning: 5 * time.Second,
					LuckyBall: true, LuckyBallVersion: roulette.LuckyMega},
				Phase: table.PhaseNoMoreBets, RoundID: "R42", Limits: testLimits, Balance: 100000, AccountOpen: true,
				History: referenceHistory(l.Wheel),
				Slip: slipOf("R42", inside(t, l, roulette.Straight, 500, 23), outside(t, l, roulette.Odd, 0, 1000),
					table.SlipBet{Bet: roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallBlue)}, Amount: 500}),
				LuckyBall: &roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31},
					Mega: roulette.BallBlue, HasMega: true},
			}
		}, fyne.Size{}, false},
		// Issue 32 point 18: a Lucky Ball win at 1280×800 on The Star's double-zero table with
		// Mega: 14 came up, the blue number, Mega at 1000:1; the blue area is filled, its word
		// large, and the winning 5 chip shows its payout tab (+5,000) in place of its Bet button.
		{file: "l_lucky_ball_win_1280.png", design: diagrams.DiagramL, layout: star, snap: func(t *testing.T, l roulette.Layout) table.Snapshot {
			draw := &roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31},
				Mega: roulette.BallBlue, HasMega: true}
			return table.Snapshot{
				Config: table.TableConfig{Layout: l, Chips: []int64{100, 500, 2500, 10000}, Warning: 5 * time.Second,
					LuckyBall: true, LuckyBallVersion: roulette.LuckyMega},
				Phase: table.PhaseResult, RoundID: "R42", Limits: testLimits, Balance: 100000 - 1500 + 500*1001, AccountOpen: true,
				History: append([]table.Outcome{{RoundID: "R42", Number: 14, At: t0}}, referenceHistory(l.Wheel)...),
				Slip: slipOf("R42", outside(t, l, roulette.Odd, 0, 1000),
					table.SlipBet{Bet: roulette.Bet{Spot: roulette.LuckyBallSpot(roulette.BallBlue)}, Amount: 500}),
				LastSettled: &table.Settled{RoundID: "R42", Number: 14, Recognised: true, Staked: 1500, Returned: 500 * 1001,
					Balance: 100000 - 1500 + 500*1001},
				LuckyBall: draw,
			}
		}, size: fyne.NewSize(1280, 800)},
		// The Asian racetrack below the ring (002 §3.2) with a wager on one group, and the
		// personal limit marker over the player's own limit sign (000 §4.3, 003 §4.6).
		{"u_asian_racetrack_personal_limits.png", diagrams.DiagramU, asian, func(t *testing.T, l roulette.Layout) table.Snapshot {
			own := roulette.Limits{Default: roulette.Limit{Min: 500, Max: 100000, Unit: 500}, AggregateMin: 1000}
			return table.Snapshot{
				Config: table.TableConfig{Layout: l, Chips: []int64{500, 2500, 10000}, Warning: 5 * time.Second, Racetrack: true},
				Phase:  table.PhaseWagering, RoundID: "R42", Deadline: t0.Add(12 * time.Second),
				Limits: testLimits, PlayerLimits: &own, Balance: 100000, AccountOpen: true, History: referenceHistory(l.Wheel),
				Slip: slipOf("R42", inside(t, l, roulette.Straight, 2500, 17),
					table.SlipBet{Bet: roulette.Bet{Spot: roulette.Spot{Kind: roulette.AsianNeighbour, Mask: roulette.MaskOf(32, 15, 19)}}, Amount: 1000}),
			}
		}, fyne.Size{}, false},
		{"u_result.png", diagrams.DiagramU, single, func(t *testing.T, l roulette.Layout) table.Snapshot {
			return table.Snapshot{
				Config: table.TableConfig{Layout: l, Chips: []int64{100, 500, 2500, 10000}, Warning: 5 * time.Second},
				Phase:  table.PhaseResult, RoundID: "R41", Limits: testLimits, Balance: 163500, AccountOpen: true,
				History:     referenceHistory(l.Wheel),
				LastSettled: &table.Settled{RoundID: "R41", Number: 17, Recognised: true, Staked: 3500, Returned: 67000, Balance: 163500},
			}
		}, fyne.Size{}, false},
	}
}

// referenceScreen builds a design's screen on a fake table that has just sent snap, and renders
// it at its size (1920×1080 unless it says) with the software painter.
func referenceScreen(t *testing.T, c referenceCase) image.Image {
	snap := c.snap(t, c.layout)
	clk := clocktest.New(t0)
	link := apptest.NewLink(clk.Now, 0, time.Millisecond, c.layout, testLimits)
	term := app.New(app.Config{Link: link, Clock: clk, Cashier: printerReady{}})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go term.Run(ctx)
	link.Push(table.Connection{Up: true})
	link.Push(snap)
	waitView(t, term, "the snapshot taken", func(v app.View) bool { return v.Connected && v.RoundID == snap.RoundID })
	s, err := NewScreen(term, c.design, c.layout)
	if err != nil {
		t.Fatal(err)
	}
	if c.kiosk {
		s.OfferLanguages(func(string) {})
	}
	size := c.size
	if size.IsZero() {
		size = fyne.NewSize(1920, 1080)
	}
	w := test.NewTempWindow(t, s.Content())
	w.Resize(size)
	return w.Canvas().Capture()
}

// Reference renders of Diagrams A, L and U: both wheels (and three double-zero felts), a
// Lucky Ball table after no more bets, and a result; each must match its PNG in
// diagrams/reference, which -update (or UPDATE_REFERENCE=1) rewrites.
func TestReferenceRenders(t *testing.T) {
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(darkTheme{theme.DefaultTheme()})
	if T("BALANCE") != "BALANCE" {
		t.Skip("the reference renders are in English; run with LANG=en_US.UTF-8 (or unset)")
	}
	update := *updateReference || os.Getenv("UPDATE_REFERENCE") == "1"
	for _, c := range referenceCases() {
		t.Run(c.file, func(t *testing.T) {
			got := referenceScreen(t, c)
			path := filepath.Join(referenceDir, c.file)
			if update {
				writeReference(t, path, got)
				return
			}
			want, err := readPNG(path)
			if err != nil {
				t.Fatalf("%v\nregenerate the reference renders with: go test ./ui -run TestReferenceRenders -update", err)
			}
			if msg := compareImages(got, want, referenceTolerance); msg != "" {
				failed := filepath.Join("testdata", "failed", "reference", c.file) // beside Fyne's own failed renders
				writeReference(t, failed, got)
				if abs, err := filepath.Abs(failed); err == nil {
					failed = abs
				}
				t.Errorf("%s is stale: %s (this run's render: %s)\n"+
					"if the change is intended, regenerate the reference renders with:\n"+
					"\tgo test ./ui -run TestReferenceRenders -update", path, msg, failed)
			}
		})
	}
}

// The reference renders come out the same on every run.
func TestReferenceRenderIsDeterministic(t *testing.T) {
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(darkTheme{theme.DefaultTheme()})
	c := referenceCases()[0]
	a, b := referenceScreen(t, c), referenceScreen(t, c)
	if msg := compareImages(a, b, 0); msg != "" {
		t.Errorf("two renders of %s differ: %s", c.file, msg)
	}
}

func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

func writeReference(t *testing.T, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareImages describes how got differs from want beyond tol per channel, or returns "".
func compareImages(got, want image.Image, tol int) string {
	if got.Bounds() != want.Bounds() {
		return fmt.Sprintf("size %v, reference %v", got.Bounds().Size(), want.Bounds().Size())
	}
	b := got.Bounds()
	n, worst, first := 0, 0, image.Point{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA)
			w := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			d := max(absDiff(g.R, w.R), absDiff(g.G, w.G), absDiff(g.B, w.B), absDiff(g.A, w.A))
			if d > tol {
				if n == 0 {
					first = image.Pt(x, y)
				}
				n++
				worst = max(worst, d)
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d pixels differ by more than %d (up to %d), the first at %v", n, tol, worst, first)
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
