package printer_test

import (
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/devices/serialport/porttest"
)

var ticket = printer.Ticket{Venue: "GRAND CASINO", Terminal: "07", Asset: "A1234",
	Issued: time.Date(2026, 11, 22, 14, 5, 33, 0, time.UTC), Validation: "001234567890123456",
	Cents: 12345, Number: 12, Expiry: "VOID AFTER 30 DAYS"}

func status(t *testing.T, flags ...printer.Flag) []byte {
	s := printer.Status{Addr: '0', Firmware: "GURUSAG18", Template: '1'}
	for _, f := range flags {
		s.Set(f, true)
	}
	b, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func enc(t *testing.T, c printer.Command) []byte {
	b, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The whole job, byte for byte: the template defined after power-up, the print, and the status
// sequence that alone says the ticket is out.
func TestTranscriptPrint(t *testing.T) {
	p := porttest.New(20 * time.Millisecond)
	p.Expect("enq", []byte{printer.ENQ}).Reply("power up", status(t, printer.FlagPowerUp, printer.FlagTopOfForm))
	p.Expect("clear", []byte("^C|^"))
	for _, c := range printer.TemplateCommands() {
		p.Expect("define", enc(t, c))
	}
	p.Expect("enq", []byte{printer.ENQ}).Reply("defined", status(t, printer.FlagTopOfForm))
	p.Expect("enq", []byte{printer.ENQ}).Reply("ready", status(t, printer.FlagTopOfForm, printer.FlagValidationPrinted))
	fields, _ := ticket.Fields()
	p.Expect("print", enc(t, printer.Command{Op: 'P', Fields: append([]string{"1", "1"}, fields...)}))
	// The previous job's flags are still up at the first poll: not taken as this job's.
	p.Expect("enq", []byte{printer.ENQ}).Reply("stale", status(t, printer.FlagTopOfForm, printer.FlagValidationPrinted))
	p.Expect("enq", []byte{printer.ENQ}).Reply("busy", status(t, printer.FlagBusy))
	p.Expect("enq", []byte{printer.ENQ}).Reply("validation printed", status(t, printer.FlagBusy, printer.FlagValidationPrinted))
	p.Expect("enq", []byte{printer.ENQ}).Reply("not busy", status(t, printer.FlagValidationPrinted))
	p.Expect("enq", []byte{printer.ENQ}).Reply("top of form", status(t, printer.FlagValidationPrinted, printer.FlagTopOfForm))
	pr := printer.New(p, printer.Config{Poll: time.Millisecond, ReplyTimeout: 100 * time.Millisecond})
	if err := pr.Print(context.Background(), ticket); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitDone(time.Second); err != nil {
		t.Fatal(err)
	}
}

type rig struct {
	emu *emulator.Printer
	pr  *printer.Printer
}

func newRig(t *testing.T) *rig {
	t.Helper()
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	emu := emulator.NewPrinter(emulator.PrinterConfig{Print: 200 * time.Millisecond, Feed: 30 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { emu.Serve(ctx, pty.Device); close(served) }()
	port, err := serialport.Open(printer.Line(pty.Path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); port.Close(); <-served; pty.Close() })
	return &rig{emu: emu, pr: printer.New(port, printer.Config{Poll: 20 * time.Millisecond, ReplyTimeout: 300 * time.Millisecond, JobTimeout: 3 * time.Second})}
}

// barcode reads the Interleaved 2 of 5 barcode back from a printed picture.
func barcode(t *testing.T, img image.Image) string {
	t.Helper()
	var r printer.Region
	for _, x := range printer.CashoutRegions {
		if x.Kind == 'B' {
			r = x
		}
	}
	y := r.Y + emulator.BarcodeHeight/2
	var widths []int
	run, black := 0, false
	for x := r.X; x < img.Bounds().Max.X; x++ {
		c, _, _, _ := img.At(x, y).RGBA()
		b := c < 0x8000
		if len(widths) == 0 && run == 0 && !b {
			continue // quiet zone
		}
		if run > 0 && b != black {
			widths = append(widths, run/r.Scale)
			run = 0
		}
		black = b
		run++
	}
	if black {
		widths = append(widths, run/r.Scale)
	}
	digits, err := emulator.DecodeI2of5(widths)
	if err != nil {
		t.Fatal(err)
	}
	return digits
}

func TestPrintOverPTY(t *testing.T) {
	r := newRig(t)
	if err := r.pr.Print(context.Background(), ticket); err != nil {
		t.Fatal(err)
	}
	out := r.emu.Printed()
	if len(out) != 1 || !out[0].Complete {
		t.Fatalf("printed %d tickets", len(out))
	}
	if got := barcode(t, out[0].Image); got != ticket.Validation {
		t.Fatalf("barcode reads %s, want %s", got, ticket.Validation)
	}
	if out[0].Fields[8] != "ONE HUNDRED TWENTY-THREE DOLLARS AND FORTY-FIVE CENTS" {
		t.Fatalf("fields %q", out[0].Fields)
	}
	// The picture a person can look at.
	path := filepath.Join(t.TempDir(), "ticket.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := out[0].WritePNG(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	f, _ = os.Open(path)
	img, err := png.Decode(f)
	f.Close()
	if err != nil || barcode(t, img) != ticket.Validation {
		t.Fatalf("the PNG does not read back: %v", err)
	}
}

func TestFaultsOverPTY(t *testing.T) {
	before := []struct {
		cmd, want string
	}{
		{"paper-out", "paper out"},
		{"head-up", "print head up"},
		{"chassis-open", "chassis open"},
		{"jam", "paper jam"},
	}
	for _, c := range before {
		t.Run(c.cmd, func(t *testing.T) {
			r := newRig(t)
			r.emu.Command(c.cmd)
			err := r.pr.Print(context.Background(), ticket)
			var pe *printer.Error
			if !errors.As(err, &pe) || pe.Outcome != printer.NotPrinted || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("print with %s: %v", c.cmd, err)
			}
			if len(r.emu.Printed()) != 0 {
				t.Fatal("a faulted printer printed")
			}
			// Cleared, the same ticket prints.
			r.emu.Command("paper")
			r.emu.Command("clear")
			if err := r.pr.Print(context.Background(), ticket); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("jam after the validation number", func(t *testing.T) {
		r := newRig(t)
		go func() {
			for !strings.Contains(mustStatus(r.emu), "validation printed") {
				time.Sleep(5 * time.Millisecond)
			}
			r.emu.Command("jam")
		}()
		err := r.pr.Print(context.Background(), ticket)
		var pe *printer.Error
		if !errors.As(err, &pe) || pe.Outcome != printer.MaybePrinted {
			t.Fatalf("jam mid-job: %v", err)
		}
		if p := r.emu.Printed(); len(p) != 1 || p[0].Complete {
			t.Fatalf("torn ticket not recorded: %+v", p)
		}
	})
	t.Run("power cycle redefines the template", func(t *testing.T) {
		r := newRig(t)
		if err := r.pr.Print(context.Background(), ticket); err != nil {
			t.Fatal(err)
		}
		r.emu.Command("power-cycle")
		if err := r.pr.Print(context.Background(), ticket); err != nil {
			t.Fatal(err)
		}
		if n := len(r.emu.Printed()); n != 2 {
			t.Fatalf("%d printed", n)
		}
	})
	t.Run("unplugged", func(t *testing.T) {
		r := newRig(t)
		r.emu.Command("unplug")
		err := r.pr.Print(context.Background(), ticket)
		var pe *printer.Error
		if !errors.As(err, &pe) || pe.Outcome != printer.NotPrinted || !errors.Is(err, printer.ErrNoReply) {
			t.Fatalf("unplugged: %v", err)
		}
		r.emu.Command("replug")
		if err := r.pr.Print(context.Background(), ticket); err != nil {
			t.Fatal(err)
		}
	})
}

func mustStatus(p *emulator.Printer) string {
	s, _ := p.Command("status")
	return s
}
