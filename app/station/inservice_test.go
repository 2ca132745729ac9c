package station_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/app/technician"
	"github.com/tablegames/ats/internal/demo"
)

// Technician mode as the table sees it, through the real station, client and table server over
// gRPC: entering shows the seat in service in the table's status (who, since when) and voids its
// slip; a wager sent anyway over the terminal's own connection is refused by the table; a
// terminal that crashes in service is shown in service and not connected until it comes back,
// in play, and says so; a network cut in service keeps the seat in service and the terminal
// says it again on reconnecting (no second audit entry); leaving puts it back in play.
func TestTechnicianModeShownAtTheTable(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, state: true})
	if err := technician.Open(r.dir, nil).Add(demo.Technician, "Tess", "900001", "135790"); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.buyIn(2000)
	round := r.round()
	red, _ := roulette.Layout{Wheel: roulette.SingleZero}.Outside(roulette.Red, 0)
	r.st.Terminal.SelectChip(500)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		t.Fatal(err)
	}
	r.eventually("the slip at the table", func() bool { return r.server().SlipTotal == 500 })
	ctx := context.Background()
	enter := func() {
		t.Helper()
		r.st.Terminal.TechnicianCard("900001")
		if err := r.st.Desk.EnterService(ctx, demo.TechnicianPIN); err != nil {
			t.Fatal(err)
		}
	}
	inService := func() bool { return r.server().InService.GetTechnicianId() == demo.Technician }
	enter()
	r.eventually("the seat in service at the table, its slip void", func() bool {
		// One reading of the table's state: a second could differ from the first.
		s := r.server()
		return s.InService.GetTechnicianId() == demo.Technician && s.InService.GetSinceUnixNanos() > 0 &&
			s.InService.GetReason() == "technician mode" && s.SlipTotal == 0
	})
	_, err := r.st.Client.UpdateSlip(ctx, round, 1000, []table.SlipBet{{Bet: roulette.Bet{Spot: red}, Amount: 500}})
	if err == nil || !strings.Contains(err.Error(), "in service") {
		t.Fatalf("a wager from a terminal in service, sent anyway: %v", err)
	}

	// A crash in service: the table keeps the seat in service, not connected, until the
	// terminal is back; it comes back in play and says so.
	r.stop()
	r.eventually("the crashed terminal in service, not connected", func() bool { s := r.server(); return !s.Connected && s.InService.GetTechnicianId() == demo.Technician })
	r.start()
	r.eventually("back in play at the table after the restart", func() bool { s := r.server(); return s.Connected && s.InService == nil })
	if out := r.records(app.ServiceLeft); len(out) != 1 || !contains(string(out[0].Body), "restarted in technician mode") {
		t.Fatalf("the session the terminal went down in, in the journal: %v", out)
	}

	// A network cut in service: still in service; said again on reconnecting.
	enter()
	r.eventually("in service again", inService)
	r.net.Cut()
	r.eventually("cut off, in service", func() bool { s := r.server(); return !s.Connected && s.InService.GetTechnicianId() == demo.Technician })
	r.net.Restore()
	r.waitView("reconnected", func(v app.View) bool { return v.Connected })
	r.eventually("reconnected, in service", func() bool { s := r.server(); return s.Connected && s.InService.GetTechnicianId() == demo.Technician })

	if err := r.st.Desk.LeaveService(ctx); err != nil {
		t.Fatal(err)
	}
	r.eventually("back in play at the table", func() bool { return r.server().InService == nil })
	// The spin the seat was taken out of play in ends; on the next one it bets again.
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, "0"); err != nil {
		t.Fatal(err)
	}
	r.round()
	r.st.Terminal.SelectChip(500) // the terminal restarted: its chip is the smallest again
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		t.Fatal(err)
	}
	r.eventually("a wager at the table again", func() bool { return r.server().SlipTotal == 500 })

	evs, err := r.demo.Table.AuditLog(200)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range evs {
		if e.Kind == "terminal-in-service" || e.Kind == "terminal-back-in-play" {
			if e.Actor != "terminal:T01" || e.Terminal != "T01" || !strings.Contains(e.Detail, demo.Technician) {
				t.Errorf("audit entry: %+v", e)
			}
			n[e.Kind]++
		}
	}
	if n["terminal-in-service"] != 2 || n["terminal-back-in-play"] != 2 {
		t.Errorf("audited changes %v, want 2 in service and 2 back in play (the reconnection changed nothing)", n)
	}
	r.conserved()
}

// The devices page reads the printer's paper and head state from the running driver, as the
// printer answers now: a head lifted and paper low show at the next refresh, and clear again;
// each device's fault now is shown under that device, not the other.
func TestTechnicianPrinterPaperAndHead(t *testing.T) {
	r := newRig(t, rigOptions{manual: true, state: true})
	if err := technician.Open(r.dir, nil).Add(demo.Technician, "Tess", "900001", "135790"); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.st.Terminal.TechnicianCard("900001")
	if err := r.st.Desk.EnterService(context.Background(), demo.TechnicianPIN); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	device := func(name string) technician.DeviceStatus {
		ds, err := r.st.Desk.DeviceStatuses(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Name == name {
				return d
			}
		}
		t.Fatalf("no %s on the devices page: %+v", name, ds)
		return technician.DeviceStatus{}
	}
	r.eventually("paper in, head down", func() bool {
		return device("Ticket printer").State == "Ready: paper in, print head down"
	})
	// What the printer is, where it is plugged in and what it counted are in words beside it.
	if p := device("Ticket printer"); p.Model == "" || p.Port == "" || len(p.Counters) == 0 || p.LastFault != "" {
		t.Fatalf("the printer as the page shows it: %+v", p)
	}
	for _, c := range []string{"head-up", "paper-low"} {
		if _, err := r.prn.Command(c); err != nil {
			t.Fatal(err)
		}
	}
	r.eventually("paper low, head up: the printer's fault under the printer", func() bool {
		p := device("Ticket printer")
		return !p.OK && strings.HasPrefix(p.State, "Fault: Printer") && strings.Contains(p.State, "paper low") &&
			strings.Contains(p.State, "print head up (platen open)")
	})
	if a := device("Note acceptor"); !a.OK || strings.Contains(a.State, "Fault") || a.LastFault != "" {
		t.Fatalf("the printer's fault shown under the acceptor: %+v", a)
	}
	for _, c := range []string{"clear", "paper"} {
		if _, err := r.prn.Command(c); err != nil {
			t.Fatal(err)
		}
	}
	r.eventually("paper in, head down again, no fault, the fault remembered", func() bool {
		p := device("Ticket printer")
		return p.OK && p.State == "Ready: paper in, print head down" && strings.HasPrefix(p.LastFault, "Printer")
	})
}
