package station_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/internal/testwait"
	"github.com/tablegames/ats/server"
)

// A station on a table whose profile asks for the ID pad and a player card: wagers are refused
// until the player touches the pad and inserts a card, through the real driver on a
// pseudo-terminal, and the game records are journalled once a slip is acknowledged.
func TestStationGatesWagersOnThePad(t *testing.T) {
	dir := t.TempDir()
	cfg := server.DefaultConfig()
	cfg.Period, cfg.IDPadRequired, cfg.PlayerCardRequired = 30*time.Second, true, true
	tbl, err := demo.StartTable(dir, "T01", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	if _, err := tbl.Table.CreditPlayer("D1", creditReq("T01", 10000)); err != nil {
		t.Fatal(err)
	}
	pad := emulator.NewIDPad(emulator.IDPadConfig{})
	pty, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer pty.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go pad.Serve(ctx, pty.Device)

	st, err := station.Start(ctx, station.Config{ID: "T01", Journal: filepath.Join(dir, "terminal.db"),
		Client: client.Config{Addr: tbl.Addr, TLS: tbl.ClientTLS}, IDPad: pty.Path, Seat: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	<-st.Recovered()
	eventually(t, "the table's snapshot with the buy-in offered", func() bool {
		v := st.Terminal.View()
		return v.Phase == table.PhaseWagering && v.BuyIn != nil
	})
	if err := st.Terminal.ConfirmBuyIn(ctx, true); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the balance", func() bool { return st.Terminal.View().Balance == 10000 })
	red, _ := roulette.Layout{Wheel: roulette.SingleZero}.Outside(roulette.Red, 0)
	st.Terminal.SelectChip(500)
	if _, err := st.Terminal.Place(roulette.Bet{Spot: red}); !errors.Is(err, app.ErrPadNotTouched) {
		t.Fatalf("untouched pad: %v", err)
	}
	// Issue 32 point 19: the screen says the pad is required before any tap, and shows the
	// seat's touch as read (another seat's pad is not this player's).
	if p := st.Terminal.View().Pad; !p.Required || p.Touched {
		t.Fatalf("before the touch the pad shows %+v", p)
	}
	if err := pad.Touch(3, true); err != nil {
		t.Fatal(err)
	}
	if err := pad.Touch(2, true); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the touch shown", func() bool { return st.Terminal.View().Pad.Touched })
	eventually(t, "the touch", func() bool {
		_, err := st.Terminal.Place(roulette.Bet{Spot: red})
		return errors.Is(err, app.ErrNoPlayerCard)
	})
	if err := pad.InsertCard(2, "6012345678"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the card", func() bool {
		_, err := st.Terminal.Place(roulette.Bet{Spot: red})
		return err == nil
	})
	eventually(t, "the acknowledged slip in the game records", func() bool {
		rs, err := st.Journal.Last(ctx, "slip-acked", 1)
		return err == nil && len(rs) == 1 && rs[0].Amount == 500
	})
	// Another seat's touch is not this player's.
	pad.Touch(2, false)
	pad.Touch(3, true)
	eventually(t, "the release shown", func() bool { return !st.Terminal.View().Pad.Touched })
	eventually(t, "the release", func() bool {
		_, err := st.Terminal.Place(roulette.Bet{Spot: red})
		return errors.Is(err, app.ErrPadNotTouched)
	})
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	if !testwait.For(10*time.Second, ok) {
		t.Fatalf("never: %s", what)
	}
}

func creditReq(terminal string, cents int64) *pb.CreditPlayerRequest {
	return &pb.CreditPlayerRequest{IdempotencyKey: "buy-in-1", TerminalId: terminal, Amount: cents}
}
