// Command kioskprobe measures the kiosk's tap-to-pixels latency on a real X display (issue 18):
// it fakes a tap on a number of the felt with XTest and times how long until the chip is on the
// window's pixels, watching the window with the DAMAGE extension and reading the tapped region
// back (GetImage) after each damage until it differs from before the tap. It prints n, p50, p95,
// p99, max and the taps that drew nothing before -timeout (e.g. a tap during no more bets, or
// on a spot at its limit), for the felt's numbers and then for the chip tray. Under each series
// it says where the time went: how long until the window's first frame after the tap (any
// damage), and how many frames came before the one with the change.
//
// It is a pure-Go X11 client (github.com/jezek/xgb), so it builds without cgo and without the
// XTest and Xdamage headers; only this command imports xgb. packaging/tap-probe.sh runs it
// against the demo kiosk under Xvfb:
//
//	bash packaging/tap-probe.sh build/ats 200
//
// The felt's place in the window is given by -felt (the felt widget's rectangle, which the
// kiosk lays out; the default is design A's at 1920×1080, measured) and the number centres are
// computed from it with the same layout geometry (package diagrams) the kiosk hit-tests with.
// Before tapping, the probe checks that each target pixel has a number box's colour (red,
// black or green), so a wrong -felt fails instead of tapping the lines between boxes.
//
// With -frames D it taps nothing: it counts the frames the window draws over D untouched (each
// damage, re-armed) and prints them per second, with the damaged area — what an idle kiosk
// redraws (issue 18: during a wagering period, the countdown's once-a-second change only).
//
// `kioskprobe journey` walks a player's journeys (journey.go); `kioskprobe wnd` reads the
// winning number display's real window back (wnd.go, packaging/wnd-probe.sh).
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"log"
	"os"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/damage"
	"github.com/jezek/xgb/xfixes"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"github.com/tablegames/ats/app/roulette"
)

// Design A's felt widget and its chip tray in a 1920×1080 kiosk window (measured on the demo
// kiosk's screenshot; see docs/performance/kiosk.md, "Tap to pixels").
const (
	defaultFelt  = "8.5,7.5,1598,570.7"
	defaultChips = "57,864;160,864;263,864;366,864;469,864"
)

type options struct {
	taps, chipTaps int
	felt, chips    string
	title          string
	doubleZero     bool
	timeout, gap   time.Duration
	half           int
	frames         time.Duration // count the idle frames over this long instead of tapping
	strict         bool          // a tap that drew nothing is an error (a check, not a measurement)
	minFPS         float64       // with frames: fewer frames a second than this is an error
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "console" {
		if err := consoleMain(os.Args[2:]); err != nil {
			log.Fatalf("kioskprobe console: %v", err)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "journey" {
		if err := journeyMain(os.Args[2:]); err != nil {
			log.Fatalf("kioskprobe journey: %v", err)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "wnd" {
		if err := wndMain(os.Args[2:]); err != nil {
			log.Fatalf("kioskprobe wnd: %v", err)
		}
		return
	}
	var o options
	flag.IntVar(&o.taps, "taps", 200, "taps on the felt's numbers (cycling 1..36)")
	flag.IntVar(&o.chipTaps, "chip-taps", 50, "taps on the chip tray (cycling its chips); 0 skips")
	flag.StringVar(&o.felt, "felt", defaultFelt, "the felt widget's rectangle in the window: X,Y,W,H")
	flag.StringVar(&o.chips, "chips", defaultChips, "the chip tray's chip centres in the window: X,Y;X,Y;…")
	flag.StringVar(&o.title, "title", "ATS", "the kiosk window's title (else the largest mapped window)")
	flag.BoolVar(&o.doubleZero, "double-zero", false, "the felt is double zero")
	flag.DurationVar(&o.timeout, "timeout", time.Second, "how long a tap may take to draw before it counts as a timeout")
	flag.DurationVar(&o.gap, "gap", 150*time.Millisecond, "pause between taps")
	flag.IntVar(&o.half, "box", 16, "half the side of the square read back around a tap")
	flag.DurationVar(&o.frames, "frames", 0, "tap nothing: count the frames the window draws over this long")
	flag.BoolVar(&o.strict, "strict", false, "fail if any tap drew nothing before -timeout (a check that every tap is answered)")
	flag.Float64Var(&o.minFPS, "min-fps", 0, "with -frames: fail if the window drew fewer frames a second (e.g. 0.8: the countdown's one a second)")
	flag.Parse()
	if err := run(o); err != nil {
		log.Fatalf("kioskprobe: %v", err)
	}
}

func run(o options) error {
	felt, err := parseRect(o.felt)
	if err != nil {
		return err
	}
	chips, err := parsePoints(o.chips)
	if err != nil {
		return err
	}
	wheel := roulette.SingleZero
	if o.doubleZero {
		wheel = roulette.DoubleZero
	}
	numbers, cell, err := numberCentres(felt, wheel)
	if err != nil {
		return err
	}
	x, err := connect(o.title)
	if err != nil {
		return err
	}
	defer x.conn.Close()
	fmt.Printf("window 0x%x %q %dx%d at %d,%d on the root\n", x.win.ID, x.win.Name, x.win.W, x.win.H, x.originX, x.originY)
	if o.frames > 0 {
		f, err := x.countFrames(o.frames)
		if err != nil {
			return err
		}
		fmt.Println(f)
		if got := float64(f.frames) / f.over.Seconds(); got < o.minFPS {
			return fmt.Errorf("%.2f frames a second untouched, fewer than -min-fps %.2f: the countdown stopped drawing", got, o.minFPS)
		}
		return nil
	}
	if err := x.checkOnNumbers(numbers, cell); err != nil {
		return err
	}
	r, err := x.series(numbers, o.taps, o)
	if err != nil {
		return err
	}
	r.print("numbers")
	lost := r.timeouts
	if o.chipTaps > 0 && len(chips) > 1 {
		// Start from the second chip: the first is chosen already and a tap on it changes nothing.
		order := append(chips[1:len(chips):len(chips)], chips[0])
		r, err := x.series(order, o.chipTaps, o)
		if err != nil {
			return err
		}
		r.print("chip tray")
		lost += r.timeouts
	}
	if o.strict && lost > 0 {
		return fmt.Errorf("%d taps drew nothing within %v", lost, o.timeout)
	}
	return nil
}

// display is the probe's X connection, the kiosk's window on it and the window's damage.
type display struct {
	conn             *xgb.Conn
	root             xproto.Window
	win              window
	originX, originY int // the window's top-left corner on the root window
	damage           damage.Damage
	events           chan xgb.Event
}

func connect(title string) (*display, error) {
	c, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("connect to $DISPLAY: %w", err)
	}
	fail := func(err error) (*display, error) { c.Close(); return nil, err }
	for name, init := range map[string]func(*xgb.Conn) error{"XTEST": xtest.Init, "XFIXES": xfixes.Init, "DAMAGE": damage.Init} {
		if err := init(c); err != nil {
			return fail(fmt.Errorf("the X server has no %s extension: %w", name, err))
		}
	}
	// DAMAGE needs XFIXES' regions, and both want their versions announced before use.
	if _, err := xfixes.QueryVersion(c, 5, 0).Reply(); err != nil {
		return fail(fmt.Errorf("XFIXES version: %w", err))
	}
	if _, err := damage.QueryVersion(c, 1, 1).Reply(); err != nil {
		return fail(fmt.Errorf("DAMAGE version: %w", err))
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	ws, err := topLevel(c, root)
	if err != nil {
		return fail(err)
	}
	w, err := pickWindow(ws, title)
	if err != nil {
		return fail(err)
	}
	tr, err := xproto.TranslateCoordinates(c, xproto.Window(w.ID), root, 0, 0).Reply()
	if err != nil {
		return fail(fmt.Errorf("window position: %w", err))
	}
	d := &display{conn: c, root: root, win: w, originX: int(tr.DstX), originY: int(tr.DstY), events: make(chan xgb.Event, 64)}
	if d.damage, err = damage.NewDamageId(c); err != nil {
		return fail(err)
	}
	if err := damage.CreateChecked(c, d.damage, xproto.Drawable(w.ID), damage.ReportLevelNonEmpty).Check(); err != nil {
		return fail(fmt.Errorf("damage on the window: %w", err))
	}
	go func() {
		for {
			ev, xerr := c.WaitForEvent()
			if ev == nil && xerr == nil {
				close(d.events)
				return
			}
			if ev != nil {
				d.events <- ev
			}
		}
	}()
	return d, nil
}

// topLevel lists the root's children (and their children: a window manager's frames) with
// their titles, map state and sizes.
func topLevel(c *xgb.Conn, root xproto.Window) ([]window, error) {
	netName, err := atom(c, "_NET_WM_NAME")
	if err != nil {
		return nil, err
	}
	tree, err := xproto.QueryTree(c, root).Reply()
	if err != nil {
		return nil, fmt.Errorf("windows: %w", err)
	}
	var out []window
	var visit func(ws []xproto.Window, depth int)
	visit = func(ws []xproto.Window, depth int) {
		for _, id := range ws {
			attr, err := xproto.GetWindowAttributes(c, id).Reply()
			if err != nil {
				continue // gone meanwhile
			}
			geo, err := xproto.GetGeometry(c, xproto.Drawable(id)).Reply()
			if err != nil {
				continue
			}
			out = append(out, window{ID: uint32(id), Name: title(c, id, netName), Mapped: attr.MapState == xproto.MapStateViewable,
				W: int(geo.Width), H: int(geo.Height)})
			if depth < 2 {
				if t, err := xproto.QueryTree(c, id).Reply(); err == nil {
					visit(t.Children, depth+1)
				}
			}
		}
	}
	visit(tree.Children, 1)
	return out, nil
}

func atom(c *xgb.Conn, name string) (xproto.Atom, error) {
	r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("atom %s: %w", name, err)
	}
	return r.Atom, nil
}

// title is a window's _NET_WM_NAME, else its WM_NAME.
func title(c *xgb.Conn, id xproto.Window, netName xproto.Atom) string {
	for _, a := range []xproto.Atom{netName, xproto.AtomWmName} {
		r, err := xproto.GetProperty(c, false, id, a, xproto.GetPropertyTypeAny, 0, 256).Reply()
		if err == nil && r.ValueLen > 0 {
			return string(r.Value)
		}
	}
	return ""
}

// region reads back the square of side 2*half around p (window coordinates).
func (d *display) region(p point, half int) ([]byte, error) {
	r, err := xproto.GetImage(d.conn, xproto.ImageFormatZPixmap, xproto.Drawable(d.win.ID),
		int16(p.X-half), int16(p.Y-half), uint16(2*half), uint16(2*half), ^uint32(0)).Reply()
	if err != nil {
		return nil, fmt.Errorf("read back at %d,%d: %w", p.X, p.Y, err)
	}
	return r.Data, nil
}

// pixel reads one pixel (a 24-bit TrueColor visual: B, G, R, pad in the image's bytes).
func (d *display) pixel(p point) (color.NRGBA, error) {
	b, err := d.region(point{p.X + 1, p.Y + 1}, 1) // the square from p to p+2: its first pixel is p
	if err != nil {
		return color.NRGBA{}, err
	}
	return color.NRGBA{R: b[2], G: b[1], B: b[0], A: 0xff}, nil
}

// checkOnNumbers fails unless every target's box shows a number box's colour (possibly under
// the veil of no more bets), not the felt's lines or its background: a wrong -felt. It looks
// near the box's top-left corner, 0.35 of a cell from the centre, past the number's label and
// any chip (0.62 of a cell across) on it, and inside the box's lines.
func (d *display) checkOnNumbers(ps []point, cell float64) error {
	bad := 0
	off := int(0.35 * cell)
	for i, p := range ps {
		c, err := d.pixel(point{p.X - off, p.Y - off})
		if err != nil {
			return err
		}
		if !numberish(c) {
			bad++
			fmt.Fprintf(os.Stderr, "number %d at %d,%d is %v, not a number box's colour\n", i+1, p.X, p.Y, c)
		}
	}
	if bad > len(ps)/4 {
		return errors.New("the targets are not on the felt's numbers: check -felt against a screenshot")
	}
	return nil
}

// result is one series' measurements: the latency of each tap that drew, the time to the
// window's first damage after each such tap (any frame, chip or not), the frames drawn before
// the one with the chip, and the taps that drew nothing before the timeout.
type result struct {
	lat, first   []time.Duration
	framesBefore []int
	timeouts     int
}

// series taps n times, cycling over ps.
func (d *display) series(ps []point, n int, o options) (result, error) {
	var r result
	for i := range n {
		p := ps[i%len(ps)]
		t, err := d.tap(p, o)
		if err != nil {
			return r, err
		}
		if t.drew {
			r.lat = append(r.lat, t.took)
			r.first = append(r.first, t.first)
			r.framesBefore = append(r.framesBefore, t.frames-1)
		} else {
			r.timeouts++
		}
		time.Sleep(o.gap)
	}
	return r, nil
}

// print writes a series' figures: the latencies, and where they went (how long until the
// window's first frame after the tap, how many frames came before the chip's).
func (r result) print(name string) {
	fmt.Printf("%s: %v\n", name, summarise(r.lat, r.timeouts))
	hist := map[int]int{}
	for _, f := range r.framesBefore {
		hist[min(f, 3)]++
	}
	fmt.Printf("  first frame after the tap: %v\n", summarise(r.first, 0))
	fmt.Printf("  frames before the chip's: 0: %d, 1: %d, 2: %d, 3+: %d\n", hist[0], hist[1], hist[2], hist[3])
}

// tapped is what one tap took.
type tapped struct {
	drew        bool
	took, first time.Duration // until the region changed; until the window's first damage
	frames      int           // damage events up to and including the one with the change
}

// tap moves the pointer to p, reads the region around it, clears the window's damage, presses
// and releases the first button there and waits until the region differs from before.
func (d *display) tap(p point, o options) (tapped, error) {
	var t tapped
	rx, ry := int16(d.originX+p.X), int16(d.originY+p.Y)
	xtest.FakeInput(d.conn, xproto.MotionNotify, 0, 0, d.root, rx, ry, 0)
	time.Sleep(20 * time.Millisecond) // the hover the move causes draws nothing, but let it pass
	before, err := d.region(p, o.half)
	if err != nil {
		return t, err
	}
	damage.Subtract(d.conn, d.damage, xfixes.RegionNone, xfixes.RegionNone)
	if _, err := xproto.GetInputFocus(d.conn).Reply(); err != nil { // a round trip: the subtract is done
		return t, err
	}
	d.drain()
	start := time.Now()
	xtest.FakeInput(d.conn, xproto.ButtonPress, 1, 0, d.root, rx, ry, 0)
	xtest.FakeInput(d.conn, xproto.ButtonRelease, 1, 0, d.root, rx, ry, 0)
	deadline := time.NewTimer(o.timeout)
	defer deadline.Stop()
	for {
		select {
		case ev, ok := <-d.events:
			if !ok {
				return t, errors.New("the X connection closed")
			}
			if _, isDamage := ev.(damage.NotifyEvent); !isDamage {
				continue
			}
			if t.frames++; t.frames == 1 {
				t.first = time.Since(start)
			}
			// Re-arm first: a frame drawn while the region is read is reported again.
			damage.Subtract(d.conn, d.damage, xfixes.RegionNone, xfixes.RegionNone)
			now, err := d.region(p, o.half)
			if err != nil {
				return t, err
			}
			if differs(before, now) {
				t.drew, t.took = true, time.Since(start)
				return t, nil
			}
		case <-deadline.C:
			return t, nil
		}
	}
}

// countFrames counts the window's damage events over d, re-arming after each (one a frame: a
// software-GL swap is one image put), and the damaged area they report.
func (d *display) countFrames(dur time.Duration) (frameCount, error) {
	damage.Subtract(d.conn, d.damage, xfixes.RegionNone, xfixes.RegionNone)
	if _, err := xproto.GetInputFocus(d.conn).Reply(); err != nil {
		return frameCount{}, err
	}
	d.drain()
	f := frameCount{over: dur, window: d.win.W * d.win.H}
	end := time.NewTimer(dur)
	defer end.Stop()
	for {
		select {
		case ev, ok := <-d.events:
			if !ok {
				return f, errors.New("the X connection closed")
			}
			n, isDamage := ev.(damage.NotifyEvent)
			if !isDamage {
				continue
			}
			f.frames++
			f.area += int(n.Area.Width) * int(n.Area.Height)
			damage.Subtract(d.conn, d.damage, xfixes.RegionNone, xfixes.RegionNone)
		case <-end.C:
			return f, nil
		}
	}
}

func (d *display) drain() {
	for {
		select {
		case <-d.events:
		default:
			return
		}
	}
}
