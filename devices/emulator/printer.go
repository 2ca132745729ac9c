package emulator

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"strconv"
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
	Print    time.Duration // a ticket's printing; 600 ms (the validation number prints half way)
	Feed     time.Duration // to the top of the next form; 100 ms
	Pace     time.Duration // per byte on the line
	Trace    func(Trace)
}

// PrintedTicket is what the printer put out: the fields it was told to print and the picture.
type PrintedTicket struct {
	Fields   []string
	Image    *image.RGBA
	Complete bool // false: torn off by a fault after the validation number printed
}

// Printer is an emulated TCL ticket printer.
type Printer struct {
	cfg PrinterConfig

	mu        sync.Mutex
	st        printer.Status
	regions   map[int]printer.Region
	templates map[int][]int
	paper     int
	job       *job
	printed   []PrintedTicket
	unplugged bool
	jammed    bool
}

type job struct {
	fields  []string
	regions []printer.Region
	start   time.Time
	img     *image.RGBA
	done    bool // busy over, waiting for top of form
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
	if cfg.Print <= 0 {
		cfg.Print = 600 * time.Millisecond
	}
	if cfg.Feed <= 0 {
		cfg.Feed = 100 * time.Millisecond
	}
	p := &Printer{cfg: cfg, paper: cfg.Paper}
	p.powerUp()
	return p
}

func (p *Printer) powerUp() {
	p.st = printer.Status{Addr: '0', Firmware: p.cfg.Firmware, Template: '0'}
	p.st.Set(printer.FlagPowerUp, true)
	p.st.Set(printer.FlagTopOfForm, true)
	p.regions, p.templates, p.job, p.jammed = map[int]printer.Region{}, map[int][]int{}, nil, false
	p.paperFlags()
}

func (p *Printer) paperFlags() {
	p.st.Set(printer.FlagPaperOut, p.paper <= 0)
	p.st.Set(printer.FlagPaperLow, p.paper > 0 && p.paper < p.cfg.LowAt)
}

func (p *Printer) trace(what string) {
	if p.cfg.Trace != nil {
		p.cfg.Trace(Trace{At: time.Now(), What: what})
	}
}

func (p *Printer) advance(now time.Time) {
	j := p.job
	if j == nil {
		return
	}
	el := now.Sub(j.start)
	if el >= p.cfg.Print/2 && j.img == nil {
		j.img = render(j.regions, j.fields)
		p.st.Set(printer.FlagValidationPrinted, true)
		p.trace("validation number printed")
	}
	if el >= p.cfg.Print && !j.done {
		j.done = true
		p.st.Set(printer.FlagBusy, false)
		p.printed = append(p.printed, PrintedTicket{Fields: j.fields, Image: j.img, Complete: true})
		p.paper--
		p.paperFlags()
		p.trace(fmt.Sprintf("printed ticket %d", len(p.printed)))
	}
	if el >= p.cfg.Print+p.cfg.Feed {
		p.st.Set(printer.FlagTopOfForm, true)
		p.job = nil
	}
}

// command runs one ^…^ command.
func (p *Printer) command(body string) {
	c, err := printer.ParseCommand(body)
	if err != nil {
		p.st.Set(printer.FlagCommandError, true)
		p.trace(err.Error())
		return
	}
	bad := func(why string) {
		p.st.Set(printer.FlagCommandError, true)
		p.trace(fmt.Sprintf("command %c refused: %s", c.Op, why))
	}
	switch c.Op {
	case 'C':
		for _, f := range []printer.Flag{printer.FlagCommandError, printer.FlagLibraryRef, printer.FlagDataCorrupted} {
			p.st.Set(f, false)
		}
	case 'R':
		if len(c.Fields) != 5 || (c.Fields[1] != "T" && c.Fields[1] != "B") {
			bad("region wants id|T or B|x|y|scale")
			return
		}
		var n [4]int
		for i, k := range []int{0, 2, 3, 4} {
			v, err := strconv.Atoi(c.Fields[k])
			if err != nil || v < 0 || v > 2000 {
				bad(fmt.Sprintf("region field %q", c.Fields[k]))
				return
			}
			n[i] = v
		}
		if n[3] < 1 || n[3] > 8 {
			bad("scale outside 1–8")
			return
		}
		p.regions[n[0]] = printer.Region{ID: n[0], Kind: c.Fields[1][0], X: n[1], Y: n[2], Scale: n[3]}
	case 'T':
		if len(c.Fields) < 2 {
			bad("template wants an id and regions")
			return
		}
		id, err := strconv.Atoi(c.Fields[0])
		if err != nil || id < 0 || id > 9 {
			bad("template id")
			return
		}
		var rs []int
		for _, f := range c.Fields[1:] {
			r, err := strconv.Atoi(f)
			if _, ok := p.regions[r]; err != nil || !ok {
				p.st.Set(printer.FlagLibraryRef, true)
				p.trace(fmt.Sprintf("template %d refers to missing region %q", id, f))
				return
			}
			rs = append(rs, r)
		}
		p.templates[id] = rs
		p.st.Set(printer.FlagPowerUp, false)
	case 'P':
		if len(c.Fields) < 2 {
			bad("print wants a template and copies")
			return
		}
		id, _ := strconv.Atoi(c.Fields[0])
		rs, ok := p.templates[id]
		if !ok {
			p.st.Set(printer.FlagLibraryRef, true)
			p.trace(fmt.Sprintf("print of undefined template %q", c.Fields[0]))
			return
		}
		fields := c.Fields[2:]
		if len(fields) != len(rs) {
			p.st.Set(printer.FlagDataCorrupted, true)
			p.trace(fmt.Sprintf("print with %d fields for %d regions", len(fields), len(rs)))
			return
		}
		if p.job != nil || len(p.st.Faults()) > 0 {
			bad("busy or faulted")
			return
		}
		j := &job{fields: fields, start: time.Now()}
		for _, r := range rs {
			j.regions = append(j.regions, p.regions[r])
		}
		p.job = j
		p.st.Template = byte('0' + id)
		p.st.Set(printer.FlagBusy, true)
		p.st.Set(printer.FlagValidationPrinted, false)
		p.st.Set(printer.FlagTopOfForm, false)
		p.trace("printing")
	default:
		bad("unknown command")
	}
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
	in := false
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
			case c == printer.ENQ:
				p.mu.Lock()
				p.advance(time.Now())
				reply, err := p.st.Encode()
				p.mu.Unlock()
				if err != nil {
					return err
				}
				sleepBytes(p.cfg.Pace, len(reply))
				if _, err := line.Write(reply); err != nil {
					return err
				}
			case c == '^' && !in:
				in, cmd = true, cmd[:0]
			case c == '^' && in:
				in = false
				p.mu.Lock()
				p.advance(time.Now())
				p.command(string(cmd))
				p.mu.Unlock()
			case in:
				if len(cmd) > 4096 {
					p.mu.Lock()
					p.st.Set(printer.FlagBufferOverflow, true)
					p.mu.Unlock()
					in = false
					continue
				}
				cmd = append(cmd, c)
			}
		}
	}
}

// fault raises or clears a fault flag; a fault during a job stops it. A job stopped after its
// validation number printed leaves a torn ticket, recorded as incomplete.
func (p *Printer) fault(f printer.Flag, on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advance(time.Now())
	p.st.Set(f, on)
	if on && p.job != nil && !p.job.done {
		if p.job.img != nil {
			p.printed = append(p.printed, PrintedTicket{Fields: p.job.fields, Image: p.job.img})
			p.paper--
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
		p.mu.Lock()
		for _, f := range flags {
			p.st.Set(f, false)
		}
		p.mu.Unlock()
		return "faults cleared", nil
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

// render draws a ticket: text with a bitmap font magnified, barcodes as bars.
func render(regions []printer.Region, fields []string) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, printer.TicketWidth, printer.TicketHeight))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for i, r := range regions {
		if i >= len(fields) {
			break
		}
		switch r.Kind {
		case 'B':
			widths, err := I2of5(fields[i], 3)
			if err != nil {
				drawText(img, r.X, r.Y, 2, "BARCODE ERROR: "+err.Error())
				continue
			}
			x := r.X + 10*r.Scale // quiet zone
			for k, w := range widths {
				if k%2 == 0 {
					draw.Draw(img, image.Rect(x, r.Y, x+w*r.Scale, r.Y+BarcodeHeight), image.Black, image.Point{}, draw.Src)
				}
				x += w * r.Scale
			}
		default:
			drawText(img, r.X, r.Y, r.Scale, fields[i])
		}
	}
	return img
}

// BarcodeHeight is the height of a printed barcode in dots.
const BarcodeHeight = 110

func drawText(dst *image.RGBA, x, y, scale int, s string) {
	face := basicfont.Face7x13
	w := font.MeasureString(face, s).Ceil()
	small := image.NewRGBA(image.Rect(0, 0, max(w, 1), 13))
	draw.Draw(small, small.Bounds(), image.White, image.Point{}, draw.Src)
	d := &font.Drawer{Dst: small, Src: image.Black, Face: face, Dot: fixed.P(0, 11)}
	d.DrawString(strings.ToUpper(s))
	for sy := range 13 {
		for sx := range w {
			c := small.RGBAAt(sx, sy)
			if c.R > 128 {
				continue
			}
			draw.Draw(dst, image.Rect(x+sx*scale, y+sy*scale, x+(sx+1)*scale, y+(sy+1)*scale), &image.Uniform{color.Black}, image.Point{}, draw.Src)
		}
	}
}

// WritePNG writes a printed ticket's picture.
func (t PrintedTicket) WritePNG(w io.Writer) error { return png.Encode(w, t.Image) }
