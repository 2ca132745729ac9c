package emulator

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"strings"
	"sync"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/tablegames/ats/devices/printer"
)

// PrinterConfig sets the emulated printer's firmware id, paper and speed.
type PrinterConfig struct {
	Firmware string        // 9 characters
	Paper    int           // tickets in the stack; 200
	LowAt    int           // paper low below this; 20
	Start    time.Duration // from the print command to busy; 30 ms
	Print    time.Duration // a ticket's printing, busy to not busy; 600 ms (validation done half way)
	Feed     time.Duration // to the top of the next form; 100 ms
	Take     time.Duration // a printed ticket stays in the chute this long; 2 s
	Pace     time.Duration // per byte on the line
	Trace    func(Trace)
}

// PrintedTicket is what the printer put out: the fields it was told to print and the picture.
type PrintedTicket struct {
	Fields   []string
	Image    *image.RGBA
	Complete bool // false: torn off by a fault after the validation number printed
}

// Printer is an emulated TCL ticket printer. It takes the commands as the public descriptions of
// TCL give them (see package printer) and refuses what a printer refuses, by its error flags:
// a command it cannot read sets command error, a region, template or print whose data it cannot
// take sets print region data error, a reference to a missing region or template sets library
// reference error. Its status is the 29-byte extended reply, with a space for the last template
// until the first print, and a job runs: busy (validation done and top of form down), barcode
// accessed, validation done, not busy (the ticket in the chute), top of form.
//
// At power-up it reports reset/power up, validation done and top of form, as a printer-side TCL
// emulator published for the Nanoptix PayCheck 4 does; RAM definitions are gone, flash ones kept.
// The clear command ^C|^ takes down the power-up flag with the command errors.
type Printer struct {
	cfg PrinterConfig

	mu        sync.Mutex
	st        printer.Status
	regions   map[byte]printer.Region
	templates map[byte]printer.Template
	paper     int
	job       *job
	feedUntil time.Time // a form feed in progress
	chuteTill time.Time // the last ticket is in the chute until then
	printed   []PrintedTicket
	unplugged bool
}

type job struct {
	template byte
	fields   []string
	regions  []printer.Region
	start    time.Time
	begun    bool // busy raised
	img      *image.RGBA
	out      bool // busy over, waiting for top of form
}

// NewPrinter returns a printer just powered up.
func NewPrinter(cfg PrinterConfig) *Printer {
	if cfg.Firmware == "" {
		cfg.Firmware = "ATSEMU101"
	}
	if cfg.Paper <= 0 {
		cfg.Paper = 200
	}
	if cfg.LowAt <= 0 {
		cfg.LowAt = 20
	}
	if cfg.Start <= 0 {
		cfg.Start = 30 * time.Millisecond
	}
	if cfg.Print <= 0 {
		cfg.Print = 600 * time.Millisecond
	}
	if cfg.Feed <= 0 {
		cfg.Feed = 100 * time.Millisecond
	}
	if cfg.Take <= 0 {
		cfg.Take = 2 * time.Second
	}
	p := &Printer{cfg: cfg, paper: cfg.Paper, regions: map[byte]printer.Region{}, templates: map[byte]printer.Template{}}
	p.powerUp()
	return p
}

func (p *Printer) powerUp() {
	p.st = printer.Status{Addr: '0', Firmware: p.cfg.Firmware, Template: printer.NoTemplate, Extended: true}
	p.st.Set(printer.FlagPowerUp, true)
	p.st.Set(printer.FlagValidationDone, true)
	p.st.Set(printer.FlagTopOfForm, true)
	for id, r := range p.regions {
		if r.Mem != printer.MemFlash {
			delete(p.regions, id)
		}
	}
	for id, t := range p.templates {
		if t.Mem != printer.MemFlash {
			delete(p.templates, id)
		}
	}
	p.job, p.feedUntil, p.chuteTill = nil, time.Time{}, time.Time{}
	p.paperFlags()
}

func (p *Printer) paperFlags() {
	p.st.Set(printer.FlagPaperOut, p.paper <= 0)
	p.st.Set(printer.FlagPaperLow, p.paper > 0 && p.paper < p.cfg.LowAt)
}

func (p *Printer) trace(format string, args ...any) {
	if p.cfg.Trace != nil {
		p.cfg.Trace(Trace{At: time.Now(), What: fmt.Sprintf(format, args...)})
	}
}

// advance moves the job, the feed and the chute on to now.
func (p *Printer) advance(now time.Time) {
	if !p.feedUntil.IsZero() && !now.Before(p.feedUntil) {
		p.feedUntil = time.Time{}
		p.st.Set(printer.FlagTopOfForm, true)
		p.trace("form fed to top of form")
	}
	if !p.chuteTill.IsZero() && !now.Before(p.chuteTill) {
		p.chuteTill = time.Time{}
		p.st.Set(printer.FlagPaperInChute, false)
	}
	j := p.job
	if j == nil {
		return
	}
	el := now.Sub(j.start) - p.cfg.Start
	if el < 0 {
		return // the command is still being taken in: the flags are the last job's
	}
	if !j.begun {
		j.begun = true
		p.st.Set(printer.FlagBusy, true)
		for _, f := range []printer.Flag{printer.FlagValidationDone, printer.FlagTopOfForm, printer.FlagBarcodeAccessed, printer.FlagPaperInChute} {
			p.st.Set(f, false)
		}
		p.chuteTill = time.Time{}
		p.trace("printing template %q", j.template)
	}
	if el >= p.cfg.Print*2/5 && !p.st.Has(printer.FlagBarcodeAccessed) && j.img == nil {
		p.st.Set(printer.FlagBarcodeAccessed, true)
	}
	if el >= p.cfg.Print/2 && j.img == nil {
		j.img = render(j.regions, j.fields)
		p.st.Set(printer.FlagValidationDone, true)
		p.trace("validation number printed")
	}
	if el >= p.cfg.Print && !j.out {
		j.out = true
		p.st.Set(printer.FlagBusy, false)
		p.st.Template = j.template
		p.printed = append(p.printed, PrintedTicket{Fields: j.fields, Image: j.img, Complete: true})
		p.paper--
		p.paperFlags()
		p.st.Set(printer.FlagPaperInChute, true)
		p.chuteTill = j.start.Add(p.cfg.Start + p.cfg.Print + p.cfg.Take)
		p.trace("printed ticket %d", len(p.printed))
	}
	if el >= p.cfg.Print+p.cfg.Feed {
		p.st.Set(printer.FlagTopOfForm, true)
		p.job = nil
	}
}

// refuse raises flag f for a command the printer cannot take.
func (p *Printer) refuse(f printer.Flag, format string, args ...any) {
	p.st.Set(f, true)
	p.trace("refused: "+format, args...)
}

// command runs one ^…^ command and returns the reply, if it has one.
func (p *Printer) command(body string) []byte {
	switch body {
	case "S|", "Se|": // status request, plain and extended: both answered with the extended status
		return p.statusReply()
	}
	c, err := printer.ParseCommand(body)
	if err != nil {
		p.refuse(printer.FlagCommandError, "%v", err)
		return nil
	}
	switch c.Op {
	case 'C':
		for _, f := range printer.Clearable() {
			p.st.Set(f, false)
		}
	case 'r':
		p.powerUp()
		p.trace("reset")
	case 'f':
		if len(c.Fields) != 1 || c.Fields[0] != "I" {
			p.refuse(printer.FlagCommandError, "form feed %q", body)
			return nil
		}
		if p.job == nil && p.feedUntil.IsZero() && !p.st.Has(printer.FlagTopOfForm) && len(p.st.Faults()) == 0 {
			p.feedUntil = time.Now().Add(p.cfg.Feed)
		}
	case 'R':
		if len(c.Fields) == 2 && c.Fields[1] == "DR" {
			if c.Fields[0] == "$" {
				p.regions = map[byte]printer.Region{}
			} else if len(c.Fields[0]) == 1 {
				delete(p.regions, c.Fields[0][0])
			} else {
				p.refuse(printer.FlagDataCorrupted, "delete of region %q", c.Fields[0])
			}
			return nil
		}
		r, err := printer.ParseRegion(c)
		if err != nil {
			p.refuse(printer.FlagDataCorrupted, "%v", err)
			return nil
		}
		p.regions[r.ID] = r
	case 'T':
		if len(c.Fields) == 2 && c.Fields[1] == "DR" {
			if c.Fields[0] == "$" {
				p.templates = map[byte]printer.Template{}
			} else if len(c.Fields[0]) == 1 {
				delete(p.templates, c.Fields[0][0])
			} else {
				p.refuse(printer.FlagDataCorrupted, "delete of template %q", c.Fields[0])
			}
			return nil
		}
		t, err := printer.ParseTemplate(c)
		if err != nil {
			p.refuse(printer.FlagDataCorrupted, "%v", err)
			return nil
		}
		for _, id := range t.Regions {
			if _, ok := p.regions[id]; !ok {
				p.refuse(printer.FlagLibraryRef, "template %q names region %q, not defined", t.ID, id)
				return nil
			}
		}
		p.templates[t.ID] = t
	case 'P':
		p.print(c)
	default:
		p.refuse(printer.FlagCommandError, "unknown command %q", c.Op)
	}
	return nil
}

// print starts a job, or refuses it.
func (p *Printer) print(c printer.Command) {
	if len(c.Fields) < 2 || len(c.Fields[0]) != 1 {
		p.refuse(printer.FlagDataCorrupted, "print wants a one-character template and copies")
		return
	}
	t, ok := p.templates[c.Fields[0][0]]
	if !ok {
		p.refuse(printer.FlagLibraryRef, "print of undefined template %q", c.Fields[0])
		return
	}
	if c.Fields[1] != "1" {
		p.refuse(printer.FlagDataCorrupted, "copies %q: this emulator prints one copy a job", c.Fields[1])
		return
	}
	fields := c.Fields[2:]
	if len(fields) != len(t.Regions) {
		p.refuse(printer.FlagDataCorrupted, "print with %d fields for %d regions", len(fields), len(t.Regions))
		return
	}
	var rs []printer.Region
	for i, id := range t.Regions {
		r, ok := p.regions[id]
		if !ok {
			p.refuse(printer.FlagLibraryRef, "template %q names region %q, since deleted", t.ID, id)
			return
		}
		if why := fits(r, fields[i]); why != "" {
			p.refuse(printer.FlagDataCorrupted, "region %q: %s", id, why)
			return
		}
		rs = append(rs, r)
	}
	if p.job != nil || !p.feedUntil.IsZero() || len(p.st.Faults()) > 0 {
		p.refuse(printer.FlagCommandError, "print while busy or faulted")
		return
	}
	p.job = &job{template: t.ID, fields: fields, regions: rs, start: time.Now()}
}

// fits says why data cannot print in r, or "".
func fits(r printer.Region, data string) string {
	if r.Barcode() {
		if _, err := I2of5(data, 2); err != nil {
			return err.Error()
		}
		if n := barcodeLength(r, data); n > along(r) {
			return fmt.Sprintf("barcode of %d dots in %d", n, along(r))
		}
		return ""
	}
	if n := len([]rune(data)) * printer.FontCellWidth * r.M1; n > along(r) {
		return fmt.Sprintf("%q is %d dots long in %d", data, n, along(r))
	}
	if printer.FontCellHeight*r.M2 > across(r) {
		return fmt.Sprintf("text %d dots high in %d", printer.FontCellHeight*r.M2, across(r))
	}
	return ""
}

// along is a region's length in its text direction; across its depth.
func along(r printer.Region) int {
	if r.Rot == printer.RotRight || r.Rot == printer.RotLeft {
		return r.DX
	}
	return r.DY
}

func across(r printer.Region) int {
	if r.Rot == printer.RotRight || r.Rot == printer.RotLeft {
		return r.DY
	}
	return r.DX
}

func (p *Printer) statusReply() []byte {
	p.advance(time.Now())
	b, err := p.st.Encode()
	if err != nil {
		panic(fmt.Sprintf("emulator: own status does not encode: %v", err)) // a bug here, not line input
	}
	return b
}

// Serve answers the host on line until ctx ends or the line fails.
func (p *Printer) Serve(ctx context.Context, line io.ReadWriter) error {
	go func() {
		<-ctx.Done()
		if c, ok := line.(io.Closer); ok {
			c.Close()
		}
	}()
	buf := make([]byte, 256)
	var cmd []byte
	in, overflow := false, false
	reply := func(b []byte) error {
		sleepBytes(p.cfg.Pace, len(b))
		_, err := line.Write(b)
		return err
	}
	for {
		n, err := line.Read(buf)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		sleepBytes(p.cfg.Pace, n)
		for _, c := range buf[:n] {
			p.mu.Lock()
			unplugged := p.unplugged
			p.mu.Unlock()
			if unplugged {
				continue
			}
			switch {
			case c == printer.ENQ: // real time: answered even in the middle of a command
				p.mu.Lock()
				b := p.statusReply()
				p.mu.Unlock()
				if err := reply(b); err != nil {
					return err
				}
			case c == '^' && !in:
				in, overflow, cmd = true, false, cmd[:0]
			case c == '^' && in:
				in = false
				if overflow {
					continue
				}
				p.mu.Lock()
				p.advance(time.Now())
				b := p.command(string(cmd))
				p.mu.Unlock()
				if b != nil {
					if err := reply(b); err != nil {
						return err
					}
				}
			case in:
				if len(cmd) >= 4096 {
					if !overflow {
						p.mu.Lock()
						p.refuse(printer.FlagBufferOverflow, "command longer than 4096 bytes")
						p.mu.Unlock()
					}
					overflow = true
					continue
				}
				cmd = append(cmd, c)
			}
			// Outside a command, anything but ENQ (CR, LF, noise) is ignored.
		}
	}
}

// fault raises or clears a fault flag; a fault during a job stops it. A job stopped after its
// validation number printed leaves a torn ticket, recorded as incomplete, and the paper off the
// top of form; one stopped before it began prints nothing.
func (p *Printer) fault(f printer.Flag, on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advance(time.Now())
	p.st.Set(f, on)
	if !on {
		return
	}
	p.feedUntil = time.Time{}
	if j := p.job; j != nil && !j.out {
		if j.img != nil {
			p.printed = append(p.printed, PrintedTicket{Fields: j.fields, Image: j.img})
			p.paper--
			p.paperFlags()
		}
		p.job = nil
		p.st.Set(printer.FlagBusy, false)
		p.trace("job stopped by a fault")
	}
}

// Printed is every ticket that left the printer, torn ones included.
func (p *Printer) Printed() []PrintedTicket {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advance(time.Now())
	return append([]PrintedTicket(nil), p.printed...)
}

// Command runs one operator command and says what happened.
func (p *Printer) Command(line string) (string, error) {
	cmd, args := fields(line)
	flags := map[string]printer.Flag{"jam": printer.FlagJam, "head-up": printer.FlagHeadUp,
		"chassis-open": printer.FlagChassisOpen, "head-error": printer.FlagHeadError,
		"offline": printer.FlagOffline, "voltage": printer.FlagVoltageError}
	switch cmd {
	case "paper-out":
		p.mu.Lock()
		p.paper = 0
		p.mu.Unlock()
		p.fault(printer.FlagPaperOut, true)
		return "paper out", nil
	case "paper-low":
		p.mu.Lock()
		p.paper = min(p.paper, p.cfg.LowAt-1)
		p.paperFlags()
		p.mu.Unlock()
		return "paper low", nil
	case "paper":
		p.mu.Lock()
		p.paper = p.cfg.Paper
		p.paperFlags()
		p.mu.Unlock()
		return "paper loaded", nil
	case "clear":
		// The operator has seen to every fault: a printer out of paper has paper again (else
		// "clear", the documented recovery, left the kiosk showing "paper out"; issue 32).
		p.mu.Lock()
		for _, f := range flags {
			p.st.Set(f, false)
		}
		msg := "faults cleared"
		if p.paper <= 0 {
			p.paper = p.cfg.Paper
			p.paperFlags()
			msg += "; paper loaded"
		}
		p.mu.Unlock()
		return msg, nil
	case "power-cycle":
		p.mu.Lock()
		p.powerUp()
		p.mu.Unlock()
		return "power cycled", nil
	case "unplug", "replug":
		p.mu.Lock()
		p.unplugged = cmd == "unplug"
		p.mu.Unlock()
		return "cable " + cmd + "ged", nil
	case "status":
		p.mu.Lock()
		p.advance(time.Now())
		s := p.st.String()
		paper := p.paper
		p.mu.Unlock()
		return fmt.Sprintf("%s; %d tickets of paper; %d printed", s, paper, len(p.Printed())), nil
	}
	if f, ok := flags[cmd]; ok {
		on := len(args) == 0 || args[0] != "off"
		p.fault(f, on)
		return fmt.Sprintf("%s %v", cmd, on), nil
	}
	return "", fmt.Errorf("unknown command %q; try jam, head-up, chassis-open, head-error, offline, voltage [off], paper-out, paper-low, paper, clear, power-cycle, unplug, replug, status", cmd)
}

// The picture of a ticket is drawn as a player reads it: the paper axis left to right, the dot
// axis top to bottom (TicketAlong × TicketAcross pixels, one a dot). A region's coordinates map
// to the picture as (x, y) → (y, x); text printed down the paper (rotation 1) reads normally.

// frame gives a region's drawing origin and its two unit steps in ticket coordinates (dot axis,
// paper axis): along the text and across it (from a character's top to its bottom).
func frame(r printer.Region) (ox, oy, ax, ay, dx, dy int) {
	switch r.Rot {
	case printer.RotRight:
		return r.X, r.Y + r.DY - 1, 1, 0, 0, -1
	case printer.RotLeft:
		return r.X + r.DX - 1, r.Y, -1, 0, 0, 1
	case printer.RotUp:
		return r.X + r.DX - 1, r.Y + r.DY - 1, 0, -1, -1, 0
	default: // RotDown
		return r.X, r.Y, 0, 1, 1, 0
	}
}

// dot blackens the dot at a along the text and d across it.
func dot(img *image.RGBA, r printer.Region, a, d int) {
	ox, oy, ax, ay, dx, dy := frame(r)
	x, y := ox+a*ax+d*dx, oy+a*ay+d*dy
	img.SetRGBA(y, x, color.RGBA{A: 0xFF})
}

// offset is where a run of n dots starts along a region, by its justification.
func offset(r printer.Region, n int) int {
	switch r.Just {
	case printer.JustCenter:
		return (along(r) - n) / 2
	case printer.JustRight:
		return along(r) - n
	}
	return 0
}

// render draws a ticket: text with a bitmap font magnified m1 along and m2 across, barcodes as
// bars m1 (narrow) or m2 (wide) dots wide across the region's depth. fits has checked every
// field against its region.
func render(regions []printer.Region, fields []string) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, printer.TicketAlong, printer.TicketAcross))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for i, r := range regions {
		if r.Barcode() {
			drawBarcode(img, r, fields[i])
		} else {
			drawText(img, r, fields[i])
		}
	}
	return img
}

// barcodeLength is the dots a barcode takes along its region, quiet zones included.
func barcodeLength(r printer.Region, digits string) int {
	widths, _ := I2of5(digits, 2)
	n := 20 * r.M1
	for _, w := range widths {
		n += element(r, w)
	}
	return n
}

func element(r printer.Region, w int) int {
	if w == 1 {
		return r.M1
	}
	return r.M2
}

func drawBarcode(img *image.RGBA, r printer.Region, digits string) {
	widths, err := I2of5(digits, 2)
	if err != nil {
		return
	}
	a := offset(r, barcodeLength(r, digits)) + 10*r.M1 // quiet zone
	for k, w := range widths {
		n := element(r, w)
		if k%2 == 0 {
			for i := range n {
				for d := range across(r) {
					dot(img, r, a+i, d)
				}
			}
		}
		a += n
	}
}

func drawText(img *image.RGBA, r printer.Region, s string) {
	face := basicfont.Face7x13
	s = strings.ToUpper(s)
	w := len([]rune(s)) * printer.FontCellWidth
	small := image.NewRGBA(image.Rect(0, 0, max(w, 1), printer.FontCellHeight))
	draw.Draw(small, small.Bounds(), image.White, image.Point{}, draw.Src)
	d := &font.Drawer{Dst: small, Src: image.Black, Face: face, Dot: fixed.P(0, 11)}
	d.DrawString(s)
	start := offset(r, w*r.M1)
	for sy := range printer.FontCellHeight {
		for sx := range w {
			if small.RGBAAt(sx, sy).R > 128 {
				continue
			}
			for i := range r.M1 {
				for k := range r.M2 {
					dot(img, r, start+sx*r.M1+i, sy*r.M2+k)
				}
			}
		}
	}
}

// WritePNG writes a printed ticket's picture.
func (t PrintedTicket) WritePNG(w io.Writer) error { return png.Encode(w, t.Image) }
