package printer_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
)

// BenchmarkStatusReader measures status reply parsing throughput.
func BenchmarkStatusReader(b *testing.B) {
	stream := []byte(strings.Repeat("*S|0|GURUSAG18|`|@|@|A|b|P1|*", 2000))
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := printer.NewStatusReader(bytes.NewReader(stream))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}

// BenchmarkPrintJob measures a cash-out ticket from the print command's first status request to
// top of form, against the emulator paced at 9600 baud with its default print timing (600 ms
// busy, 100 ms feed), polled every 100 ms as the terminal does. The template is defined before
// the timer starts.
func BenchmarkPrintJob(b *testing.B) {
	pty, err := serialport.NewPTY()
	if err != nil {
		b.Fatal(err)
	}
	emu := emulator.NewPrinter(emulator.PrinterConfig{Pace: emulator.Pace(9600), Paper: 1 << 20})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { emu.Serve(ctx, pty.Device); close(served) }()
	port, err := serialport.Open(printer.Line(pty.Path))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { cancel(); port.Close(); <-served; pty.Close() }()
	pr := printer.New(port, printer.Config{})
	if err := pr.Define(); err != nil {
		b.Fatal(err)
	}
	tk := printer.Ticket{Venue: "GRAND CASINO", Terminal: "07", Asset: "A1234", Issued: time.Now(),
		Validation: "001234567890123456", Cents: 12345, Number: 12, Expiry: "VOID AFTER 30 DAYS"}
	b.ResetTimer()
	for b.Loop() {
		if err := pr.Print(context.Background(), tk); err != nil {
			b.Fatal(err)
		}
	}
}
