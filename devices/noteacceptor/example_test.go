package noteacceptor_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/serialport"
)

// cashier is the app's side: it says whether to take each note and journals each credit. Here
// it prints them, and passes the driver's events on for the example to wait on.
type cashier struct{ events chan noteacceptor.Kind }

func (c cashier) Escrow(_ context.Context, e noteacceptor.Escrow) bool {
	fmt.Println("escrow:", e, "- stack it")
	return true
}

func (c cashier) Credit(e noteacceptor.Escrow) error {
	fmt.Println("credit:", e)
	return nil
}

func (c cashier) Event(ev noteacceptor.Event) {
	select {
	case c.events <- ev.Kind:
	default:
	}
}

func (c cashier) waitFor(k noteacceptor.Kind) error {
	timeout := time.After(5 * time.Second)
	for {
		select {
		case got := <-c.events:
			if got == k {
				return nil
			}
		case <-timeout:
			return fmt.Errorf("no %v within 5 s", k)
		}
	}
}

// A $20 note into an ID-003 acceptor: the driver, on a serial line (a pseudo-terminal to the
// device emulator, through the same serialport code a cabinet's line goes through), asks the app
// about the note in escrow, stacks it, and credits it at the acceptor's credit point (VEND
// VALID), once.
func Example() {
	pty, err := serialport.NewPTY()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pty.Close()
	emu := emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{
		Init: 20 * time.Millisecond, Accept: 20 * time.Millisecond, Stack: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go emu.Serve(ctx, pty.Device)

	port, err := serialport.Open(noteacceptor.Line(pty.Path)) // 9600 8E1, as ID-003 says
	if err != nil {
		fmt.Println(err)
		return
	}
	defer port.Close()
	app := cashier{events: make(chan noteacceptor.Kind, 64)}
	acceptor := noteacceptor.New(port, app, noteacceptor.Config{Poll: 20 * time.Millisecond})
	go acceptor.Run(ctx)
	if err := app.waitFor(noteacceptor.Ready); err != nil {
		fmt.Println(err)
		return
	}
	acceptor.SetInhibit(false) // the terminal takes money now
	if err := app.waitFor(noteacceptor.Enabled); err != nil {
		fmt.Println(err)
		return
	}

	if err := emu.InsertNote(2000); err != nil {
		fmt.Println(err)
		return
	}
	if err := app.waitFor(noteacceptor.Stacked); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("cash box:", emu.CashboxCents(), "cents")
	// Output:
	// escrow: note of 2000 cents - stack it
	// credit: note of 2000 cents
	// cash box: 2000 cents
}
