package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// fakeAuth knows technician "tech-1" with PIN 246810 and card 900001, and records what the
// terminal journals.
type fakeAuth struct {
	mu      sync.Mutex
	records []string
}

func (f *fakeAuth) Authenticate(_ context.Context, id, pin string) (Technician, error) {
	if id == "tech-1" && pin == "246810" {
		return Technician{ID: id, Name: "Tess Tech"}, nil
	}
	return Technician{}, ErrWrongPIN
}

func (f *fakeAuth) ServiceRecord(_ context.Context, kind, id, detail string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.records = append(f.records, kind+" "+id)
	return nil
}

func (f *fakeAuth) kinds() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.records...)
}

func withService(f *fakeAuth) func(*Config) {
	return func(c *Config) {
		c.Service = ServiceConfig{Auth: f, Log: f, Card: func(card string) (string, bool) {
			return "tech-1", card == "900001"
		}}
	}
}

// Technician mode refuses every slip change with ErrInService, withdraws the wagers of the spin
// it was entered in (the empty slip reaches the table), says "in service", and after leaving
// betting works again; entering and leaving are recorded with the technician's id, and so is a
// wrong PIN.
func TestTechnicianModeStopsBetting(t *testing.T) {
	f := &fakeAuth{}
	h := newHarness(t, withService(f))
	s17 := spot(t, roulette.Straight, 17)
	if _, err := h.term.Place(s17); err != nil {
		t.Fatal(err)
	}
	if err := h.link.WaitSlip(3 * time.Second); err != nil {
		t.Fatal(err)
	}

	if err := h.term.EnterService(context.Background(), "246810"); !errors.Is(err, ErrNoTechnicianCard) {
		t.Fatalf("PIN without a card: %v", err)
	}
	h.term.TechnicianCard("123456") // a player's card asks nothing
	if v := h.term.View(); v.Service.Asking != "" {
		t.Fatalf("a player card asks for a PIN: %+v", v.Service)
	}
	h.term.TechnicianCard("900001")
	if v := h.term.View(); v.Service.Asking != "tech-1" {
		t.Fatalf("technician card: %+v", v.Service)
	}
	if err := h.term.EnterService(context.Background(), "111111"); !errors.Is(err, ErrWrongPIN) {
		t.Fatalf("wrong PIN: %v", err)
	}
	if v := h.term.View(); v.Service.Open || v.Service.Said.IsZero() {
		t.Fatalf("after a wrong PIN: %+v", v.Service)
	}
	if err := h.term.EnterService(context.Background(), "246810"); err != nil {
		t.Fatal(err)
	}
	v := h.term.View()
	if !v.Service.Open || v.Service.Technician.ID != "tech-1" || v.Period != PeriodInService || len(v.Stakes) != 0 || !v.Void.Equal(sayWithdrawn) {
		t.Fatalf("in service: %+v period %v stakes %v void %v", v.Service, v.Period, v.Stakes, v.Void)
	}
	if !h.term.InService() {
		t.Fatal("InService false")
	}
	// The withdrawal reaches the table: the newest slip is empty.
	eventually(t, "the empty slip sent", func() bool {
		s, ok := h.link.LastSlip()
		return ok && len(s.Bets) == 0 && s.Version > 1
	})
	for name, try := range map[string]func() error{
		"place":  func() error { _, err := h.term.Place(s17); return err },
		"move":   func() error { _, err := h.term.Move(s17, spot(t, roulette.Straight, 18)); return err },
		"remove": func() error { return h.term.Remove(s17) },
		"undo":   h.term.Undo, "clear": h.term.Clear, "repeat": h.term.Repeat, "double": h.term.Double,
		"favourite": func() error { return h.term.PlaceFavourite(Favourite{Stakes: []Stake{{Bet: s17, Amount: 100}}}) },
	} {
		if err := try(); !errors.Is(err, ErrInService) {
			t.Errorf("%s in service: %v, want ErrInService", name, err)
		}
	}
	if v := h.term.View(); !v.Message.Msg.Equal(msg.Of(ErrInService)) && !v.Message.Msg.Equal(sayInService) {
		t.Errorf("message in service: %v", v.Message)
	}

	h.clk.Advance(90 * time.Second)
	if err := h.term.LeaveService(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.term.LeaveService(context.Background()); !errors.Is(err, ErrNotInService) {
		t.Fatalf("leaving twice: %v", err)
	}
	if h.term.InService() || h.term.View().Period == PeriodInService {
		t.Fatal("still in service after leaving")
	}
	// A new round: betting works again.
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" })
	if fb, err := h.term.Place(s17); err != nil || fb.Accepted != 100 {
		t.Fatalf("after leaving: %+v %v", fb, err)
	}
	want := []string{"technician-refused tech-1", "technician-in tech-1", "technician-out tech-1"}
	if got := f.kinds(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("recorded %v, want %v", got, want)
	}
}

// Without technician credentials nothing opens technician mode: no card configured, no auth.
func TestNoTechnicianModeWithoutAuth(t *testing.T) {
	h := newHarness(t)
	h.term.TechnicianCard("900001")
	if err := h.term.EnterService(context.Background(), "246810"); !errors.Is(err, ErrNoTechnicianMode) {
		t.Fatalf("EnterService without auth: %v", err)
	}
	if h.term.InService() {
		t.Fatal("in service")
	}
}

// The table is told: the connection's first snapshot brings a report (in play), entering
// reports the seat in service before the withdrawal reaches the table, every new connection
// (snapshot) reports it again, a report the table did not take is sent again at the next one,
// and leaving reports the seat back in play. A terminal without technician mode reports
// nothing.
func TestTechnicianModeToldToTheTable(t *testing.T) {
	f := &fakeAuth{}
	h := newHarness(t, withService(f))
	reports := func() string {
		var out []string
		for _, s := range h.link.ServiceReports() {
			if s == nil {
				out = append(out, "in play")
			} else {
				out = append(out, s.Technician+" "+s.Reason)
			}
		}
		return strings.Join(out, ", ")
	}
	eventually(t, "the first report", func() bool { return reports() == "in play" })
	if _, err := h.term.Place(spot(t, roulette.Straight, 17)); err != nil {
		t.Fatal(err)
	}
	if err := h.link.WaitSlip(3 * time.Second); err != nil {
		t.Fatal(err)
	}
	h.term.TechnicianCard("900001")
	if err := h.term.EnterService(context.Background(), "246810"); err != nil {
		t.Fatal(err)
	}
	if err := h.link.WaitSlip(3 * time.Second); err != nil {
		t.Fatal(err)
	}
	// The withdrawal (an empty slip) is sent after the report, by the same goroutine.
	if s, _ := h.link.LastSlip(); len(s.Bets) != 0 || reports() != "in play, tech-1 "+ServiceReason {
		t.Fatalf("when the withdrawal reached the table: slip %+v, reports %q", s, reports())
	}
	// A reconnection while in service: the table hears it again.
	h.link.Push(table.Connection{Up: false})
	h.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}}, Phase: table.PhaseIdle,
		Limits: limits, Balance: 10000, AccountOpen: true})
	eventually(t, "the report again after the reconnection", func() bool {
		return reports() == "in play, tech-1 "+ServiceReason+", tech-1 "+ServiceReason
	})
	// A table that does not answer: the report is owed until the next connection.
	h.link.SetRefuseService(errors.New("unavailable"))
	calls := h.link.ServiceCalls()
	if err := h.term.LeaveService(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the report refused", func() bool { return h.link.ServiceCalls() > calls })
	if got := reports(); strings.HasSuffix(got, ", in play") {
		t.Fatalf("a refused report recorded: %q", got)
	}
	h.link.SetRefuseService(nil)
	h.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}}, Phase: table.PhaseIdle,
		Limits: limits, Balance: 10000, AccountOpen: true})
	eventually(t, "back in play told at the next connection", func() bool {
		return reports() == "in play, tech-1 "+ServiceReason+", tech-1 "+ServiceReason+", in play"
	})

	plain := newHarness(t)
	if _, err := plain.term.Place(spot(t, roulette.Straight, 17)); err != nil {
		t.Fatal(err)
	}
	if err := plain.link.WaitSlip(3 * time.Second); err != nil {
		t.Fatal(err)
	}
	if n := len(plain.link.ServiceReports()); n != 0 {
		t.Fatalf("a terminal without technician mode reported %d times", n)
	}
}

// An unknown card at the pad is answered in words (issue 32 point 13): a card that is not a
// technician's is told as not used at a table that takes no player cards, and as the player's
// card where the table requires one; a technician's card still asks for the PIN and says nothing.
func TestUnknownCardAtThePadIsTold(t *testing.T) {
	f := &fakeAuth{}
	h := newHarness(t, withService(f))
	h.term.TechnicianCard("123456")
	if v := h.term.View(); v.Service.Asking != "" || !v.Message.Msg.Equal(sayCardNotUsed) {
		t.Fatalf("an unknown card: asking %q, message %v", v.Service.Asking, v.Message)
	}
	h.term.TechnicianCard("")
	h.clk.Advance(10 * time.Second)
	h.term.TechnicianCard("900001")
	if v := h.term.View(); v.Service.Asking != "tech-1" || v.Message.Msg.Equal(sayCardNotUsed) {
		t.Fatalf("a technician's card: asking %q, message %v", v.Service.Asking, v.Message)
	}

	h2 := newHarness(t) // no technician mode on this terminal: the card still gets words
	h2.term.TechnicianCard("123456")
	if v := h2.term.View(); !v.Message.Msg.Equal(sayCardNotUsed) {
		t.Fatalf("an unknown card without technician mode: message %v", v.Message)
	}

	h3 := startHarness(t, nil, withService(f))
	h3.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}, PlayerCardRequired: true},
		Phase: table.PhaseWagering, RoundID: "R1", Deadline: h3.clk.Now().Add(32 * time.Second), Limits: limits, Balance: 10000, AccountOpen: true})
	h3.waitFor(func(v View) bool { return v.RoundID == "R1" })
	h3.term.TechnicianCard("123456")
	if v := h3.term.View(); !v.Message.Msg.Equal(sayPlayerCardRead) {
		t.Fatalf("a player's card where the table requires one: message %v", v.Message)
	}
}
