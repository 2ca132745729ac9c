package printer_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
)

// A cash-out ticket on a TCL printer: the driver, on a serial line (a pseudo-terminal to the
// device emulator, through the same serialport code a cabinet's line goes through), defines the
// ticket's regions and template, prints it, and returns only once the printer's status flags
// say it is out (busy → validation done → not busy → top of form). The fields are what the
// printer received, in its template's order.
func Example() {
	pty, err := serialport.NewPTY()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pty.Close()
	emu := emulator.NewPrinter(emulator.PrinterConfig{Print: 100 * time.Millisecond, Feed: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go emu.Serve(ctx, pty.Device)

	port, err := serialport.Open(printer.Line(pty.Path)) // 9600 8N1
	if err != nil {
		fmt.Println(err)
		return
	}
	defer port.Close()
	p := printer.New(port, printer.Config{Poll: 20 * time.Millisecond})
	err = p.Print(ctx, printer.Ticket{
		Venue: "GRAND CASINO", Terminal: "07", Asset: "A1234",
		Issued:     time.Date(2026, 11, 22, 14, 5, 33, 0, time.UTC),
		Validation: "001234567890123456", Cents: 12345, Number: 12, Expiry: "VOID AFTER 30 DAYS",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range emu.Printed() {
		fmt.Println("complete:", t.Complete)
		for i, f := range t.Fields {
			fmt.Printf("%2d %s\n", i+1, f)
		}
	}
	// Output:
	// complete: true
	//  1 CASHOUT TICKET
	//  2 GRAND CASINO
	//  3 TERMINAL 07  ASSET A1234
	//  4 2026-11-22
	//  5 14:05:33
	//  6 VALIDATION 00-1234-5678-9012-3456
	//  7 001234567890123456
	//  8 $123.45
	//  9 ONE HUNDRED TWENTY-THREE DOLLARS AND FORTY-FIVE CENTS
	// 10 TICKET # 0012
	// 11 VOID AFTER 30 DAYS
}

// The printer's status, asked with ENQ: its firmware id and its flags, here those of a printer
// just powered up (the flag the host clears with "^C|^"), paper at the top of form, no fault,
// and a space for the last template printed: nothing since power-up.
func ExamplePrinter_Status() {
	pty, err := serialport.NewPTY()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pty.Close()
	emu := emulator.NewPrinter(emulator.PrinterConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go emu.Serve(ctx, pty.Device)

	port, err := serialport.Open(printer.Line(pty.Path))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer port.Close()
	st, err := printer.New(port, printer.Config{}).Status()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st)
	fmt.Println("faults:", st.Faults())
	// Output:
	// printer ATSEMU101: power up validation done top of form; nothing printed since power up
	// faults: []
}
