package idpad_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/idpad"
	"github.com/tablegames/ats/devices/serialport"
)

// A player touches their ID pad and shows their card: the driver, on a serial line (a
// pseudo-terminal to the device emulator, through the same serialport code a cabinet's line goes
// through), acknowledges each event frame and reports it, and a Seat says whether its player's
// pad is touched — what the terminal asks before it takes a touch on the layout as that
// player's.
func Example() {
	pty, err := serialport.NewPTY()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pty.Close()
	emu := emulator.NewIDPad(emulator.IDPadConfig{Heartbeat: 50 * time.Millisecond, Resend: 40 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go emu.Serve(ctx, pty.Device)

	port, err := serialport.Open(idpad.Line(pty.Path)) // 19200 8N1
	if err != nil {
		fmt.Println(err)
		return
	}
	defer port.Close()
	pad := idpad.New(port, idpad.Config{})
	go pad.Run(ctx)
	next := func() idpad.Event {
		select {
		case e := <-pad.Events():
			return e
		case <-time.After(5 * time.Second):
			return idpad.Event{Kind: idpad.Lost}
		}
	}
	fmt.Println(next()) // the first heartbeat: the pads heard, their state read from it
	seat := pad.Seat(3)
	fmt.Println("seat 3 touched:", seat.Touched())

	emu.Touch(3, true)
	fmt.Println(next())
	fmt.Println("seat 3 touched:", seat.Touched())
	emu.InsertCard(3, "778899")
	fmt.Println(next())
	card, ok := seat.Card()
	fmt.Println("seat 3 card:", card, ok)
	emu.Touch(3, false)
	fmt.Println(next())
	fmt.Println("seat 3 touched:", seat.Touched())
	// Output:
	// id pad 0: restored
	// seat 3 touched: false
	// id pad 3: touched
	// seat 3 touched: true
	// id pad 3: card inserted 778899
	// seat 3 card: 778899 true
	// id pad 3: released
	// seat 3 touched: false
}
