package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/testwait"

	"github.com/tablegames/ats/app/apptest"
	"github.com/tablegames/ats/app/roulette"
)

var layout = roulette.Layout{Wheel: roulette.SingleZero}

var limits = roulette.Limits{
	Default:      roulette.Limit{Min: 100, Max: 50000, Unit: 100},
	PerKind:      map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 2500, Unit: 100}},
	AggregateMin: 500,
}

func spot(t *testing.T, k roulette.Kind, ns ...roulette.Number) roulette.Bet {
	t.Helper()
	s, err := layout.Inside(k, ns)
	if err != nil {
		t.Fatal(err)
	}
	return roulette.Bet{Spot: s}
}

func outside(t *testing.T, k roulette.Kind, which int) roulette.Bet {
	t.Helper()
	s, err := layout.Outside(k, which)
	if err != nil {
		t.Fatal(err)
	}
	return roulette.Bet{Spot: s}
}

// harness is a terminal on a fake table, in the wagering period of round R1, with 10,000 cents.
type harness struct {
	t     *testing.T
	clk   *clocktest.Fake
	link  *apptest.Link
	term  *Terminal
	views chan View
}

// start is the fake table's first moment.
var start = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, opts ...func(*Config)) *harness {
	h := startHarness(t, nil, opts...)
	h.link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, Chips: []int64{100, 500, 2500}},
		Phase:  table.PhaseWagering, RoundID: "R1",
		Deadline: h.clk.Now().Add(2 * time.Second).Add(30 * time.Second), // server time: 30 s left
		Limits:   limits, Balance: 10000, AccountOpen: true,
	})
	h.waitFor(func(v View) bool { return v.RoundID == "R1" && v.Connected })
	return h
}

// startHarness starts a terminal with the game records rec (nil for none) and the options on a
// fake table that is connected and has sent no snapshot yet.
func startHarness(t *testing.T, rec Recorder, opts ...func(*Config)) *harness {
	clk := clocktest.New(start)
	link := apptest.NewLink(clk.Now, 2*time.Second, 3*time.Millisecond, layout, limits)
	cfg := Config{Link: link, Clock: clk, Records: rec}
	for _, o := range opts {
		o(&cfg)
	}
	term := New(cfg)
	h := &harness{t: t, clk: clk, link: link, term: term, views: make(chan View, 1024)}
	term.OnChange(func(v View) { h.views <- v })
	ran := make(chan struct{})
	go func() { term.Run(context.Background()); close(ran) }()
	t.Cleanup(func() { term.Close(); <-ran })
	link.Push(table.Connection{Up: true})
	return h
}

// eventually waits for ok, failing the test after a few seconds.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	if !testwait.For(5*time.Second, ok) {
		t.Fatalf("never: %s", what)
	}
}

func (h *harness) waitFor(pred func(View) bool) View {
	h.t.Helper()
	deadline := time.After(3 * time.Second)
	for {
		select {
		case v := <-h.views:
			if pred(v) {
				return v
			}
		case <-deadline:
			h.t.Fatalf("view never matched; last %+v", h.term.View())
		}
	}
}

func TestLimitsAtTheTouch(t *testing.T) {
	h := newHarness(t)
	s17 := spot(t, roulette.Straight, 17)
	red := outside(t, roulette.Red, 0)

	fb, err := h.term.Place(s17)
	if err != nil || fb.Accepted != 100 {
		t.Fatalf("first chip: %+v %v", fb, err)
	}
	h.term.SelectChip(2500)
	fb, _ = h.term.Place(s17)
	if fb.Accepted != 2500 || fb.Reason != roulette.ReasonAboveMaximum || fb.Message.IsZero() {
		t.Fatalf("over the straight maximum: %+v", fb)
	}
	h.term.SelectChip(50) // a chip below the minimum on an empty spot: no chips appear
	fb, _ = h.term.Place(red)
	if fb.Accepted != 0 || fb.Reason != roulette.ReasonBelowMinimum {
		t.Fatalf("below the minimum: %+v", fb)
	}
	h.term.SelectChip(150) // off the unit: the next lowest permitted amount
	fb, _ = h.term.Place(red)
	if fb.Accepted != 100 || fb.Reason != roulette.ReasonOffUnit {
		t.Fatalf("off the unit: %+v", fb)
	}
	h.term.SelectChip(9000) // more than the balance covers beyond the other stakes
	fb, _ = h.term.Place(red)
	if fb.Accepted != 10000-2500 || fb.Reason != roulette.ReasonBalance {
		t.Fatalf("over the balance: %+v", fb)
	}
	v := h.term.View()
	if v.SlipTotal != 10000 || v.Available != 0 {
		t.Fatalf("view: total %d available %d", v.SlipTotal, v.Available)
	}
	// The newest version reaches the table and is acknowledged.
	v = h.waitFor(func(v View) bool { return v.Acked && v.SlipTotal == 10000 })
	last, _ := h.link.LastSlip()
	if last.Round != "R1" || len(last.Bets) != 2 || last.Bets[1].Amount != 7500 {
		t.Fatalf("sent: %+v", last)
	}
}

func TestUndoClearDoubleRepeat(t *testing.T) {
	h := newHarness(t)
	a, b := spot(t, roulette.Split, 17, 20), outside(t, roulette.Dozen, 2)
	h.term.SelectChip(500)
	h.term.Place(a)
	h.term.Place(a)
	h.term.Place(b)
	if got := h.term.View().Stakes; len(got) != 2 || got[0].Amount != 1000 {
		t.Fatalf("stakes: %+v", got)
	}
	h.term.Undo()
	h.term.Undo()
	if got := h.term.View().Stakes; len(got) != 1 || got[0].Amount != 500 {
		t.Fatalf("after two undos: %+v", got)
	}
	h.term.Place(b)
	if err := h.term.Double(); err != nil {
		t.Fatal(err)
	}
	if got := h.term.View().Stakes; got[0].Amount != 1000 || got[1].Amount != 1000 {
		t.Fatalf("doubled: %+v", got)
	}
	h.term.Undo() // a double is one step
	if got := h.term.View().Stakes; got[0].Amount != 500 || got[1].Amount != 500 {
		t.Fatalf("double undone: %+v", got)
	}
	moved, err := h.term.Move(b, outside(t, roulette.Black, 0))
	if err != nil || moved.Accepted != 500 || h.term.View().Stakes[1].Bet.Spot.Kind != roulette.Black {
		t.Fatalf("move: %+v %v", moved, err)
	}
	h.term.Clear()
	if len(h.term.View().Stakes) != 0 {
		t.Fatal("clear left stakes")
	}
	h.term.Undo()
	if len(h.term.View().Stakes) != 2 {
		t.Fatal("clear is not undoable")
	}
	// Settle the round; the next round can repeat it.
	h.link.Push(table.Settled{RoundID: "R1", Number: 17, Recognised: true, Staked: 1000, Returned: 9000, Balance: 18000})
	h.waitFor(func(v View) bool { return v.LastWin != nil && len(v.Stakes) == 0 })
	h.link.Push(table.PhaseChanged{Phase: table.PhaseWagering, RoundID: "R2", Deadline: h.link.ServerNow().Add(30 * time.Second)})
	h.waitFor(func(v View) bool { return v.RoundID == "R2" && !v.Locked })
	if err := h.term.Repeat(); err != nil {
		t.Fatal(err)
	}
	if got := h.term.View().Stakes; len(got) != 2 || got[0].Amount != 500 || got[1].Bet.Spot.Kind != roulette.Black {
		t.Fatalf("repeat: %+v", got)
	}
}

// The layout locks at the lock time from the server-clock estimate, before the server's deadline.
func TestLockOnTime(t *testing.T) {
	h := newHarness(t)
	s := spot(t, roulette.Straight, 5)
	// The fake link knows the server clock to 3 ms; with the 5 ms margin the lock comes 8 ms
	// before the server's deadline.
	h.clk.Advance(30*time.Second - 20*time.Millisecond)
	if _, err := h.term.Place(s); err != nil {
		t.Fatalf("a chip 20 ms before the deadline: %v", err)
	}
	h.clk.Advance(15 * time.Millisecond) // 5 ms before the deadline
	if _, err := h.term.Place(s); !errors.Is(err, ErrLocked) {
		t.Fatalf("a chip placed 5 ms before the deadline with an 8 ms lock lead: %v", err)
	}
	if !h.term.View().Locked || h.term.Undo() == nil {
		t.Fatal("the layout is not locked")
	}
}

// Losing the table before the deadline voids the wagers; the snapshot after the reconnect is
// the truth, including the slip the server holds.
func TestLostTableAndRestore(t *testing.T) {
	h := newHarness(t)
	h.term.Place(spot(t, roulette.Straight, 9))
	h.link.WaitSlip(time.Second)
	h.link.Push(table.Connection{Up: false})
	v := h.waitFor(func(v View) bool { return !v.Connected })
	if v.Void.IsZero() || len(v.Stakes) != 0 || !v.Locked {
		t.Fatalf("after losing the table: %+v", v)
	}
	// A restart mid-round: the server's acknowledged slip comes back on the screen.
	h.link.Push(table.Connection{Up: true})
	h.link.Push(table.Snapshot{
		Config: table.TableConfig{Layout: layout, Chips: []int64{100}}, Phase: table.PhaseNoMoreBets, RoundID: "R1",
		Limits: limits, Balance: 10000, AccountOpen: true,
		Slip: &table.SlipAck{RoundID: "R1", Version: 3,
			Bets:    []table.SlipBet{{Bet: roulette.Bet{Call: roulette.Voisins}, Amount: 100}},
			Results: []table.BetResult{{Accepted: 900}}},
	})
	v = h.waitFor(func(v View) bool { return v.Connected && v.Phase == table.PhaseNoMoreBets })
	if len(v.Stakes) != 1 || v.Stakes[0].Amount != 100 || v.SlipTotal != 900 || !v.Locked {
		t.Fatalf("restored: %+v", v)
	}
}

// The server is authoritative: when it accepts less than the screen showed, the screen follows.
func TestServerAdjustsTheSlip(t *testing.T) {
	h := newHarness(t)
	h.link.SetLimits(roulette.Limits{Default: roulette.Limit{Min: 100, Max: 300, Unit: 100}})
	h.term.SelectChip(500)
	h.term.Place(outside(t, roulette.Odd, 0))
	v := h.waitFor(func(v View) bool { return v.Acked && len(v.Stakes) == 1 })
	if v.Stakes[0].Amount != 300 || v.Message.IsZero() {
		t.Fatalf("after the server's ack: %+v", v)
	}
}

func BenchmarkPlace(b *testing.B) {
	clk := clocktest.New(start)
	link := apptest.NewLink(clk.Now, 0, time.Millisecond, layout, limits)
	term := New(Config{Link: link, Clock: clk})
	term.apply(table.Connection{Up: true})
	term.apply(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}}, Phase: table.PhaseWagering,
		RoundID: "R1", Deadline: clk.Now().Add(time.Hour), Limits: limits, Balance: 1 << 40, AccountOpen: true})
	spots := layout.Spots()
	i := 0
	for b.Loop() {
		term.Place(roulette.Bet{Spot: spots[i%len(spots)]})
		i++
		if i%20 == 0 { // a slip of up to 20 bets, as players build them
			term.Clear()
		}
	}
}

// fakeGate is a seat's ID pad and card reader.
type fakeGate struct {
	mu      sync.Mutex
	touched bool
	card    string
}

func (g *fakeGate) Touched() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.touched }
func (g *fakeGate) Card() (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.card, g.card != ""
}

// When the profile requires the ID pad, a touch on the layout counts only while the pad is
// touched; when it requires a player card, only with the card in.
func TestPadAndCardGateWagers(t *testing.T) {
	s17 := spot(t, roulette.Straight, 17)
	cfg := table.TableConfig{Layout: layout, Chips: []int64{100, 500, 2500}, IDPadRequired: true, PlayerCardRequired: true}
	requiring := func(h *harness) {
		h.link.Push(table.Snapshot{Config: cfg, Phase: table.PhaseWagering, RoundID: "R1",
			Deadline: h.clk.Now().Add(32 * time.Second), Limits: limits, Balance: 10000, AccountOpen: true})
		h.waitFor(func(v View) bool { return v.Config.IDPadRequired })
	}
	h := newHarness(t)
	requiring(h)
	if _, err := h.term.Place(s17); !errors.Is(err, ErrPadNotTouched) {
		t.Fatalf("no pad connected: %v", err)
	}
	g := &fakeGate{}
	h = newHarness(t, func(c *Config) { c.Gate = g })
	requiring(h)
	if _, err := h.term.Place(s17); !errors.Is(err, ErrPadNotTouched) {
		t.Fatalf("pad not touched: %v", err)
	}
	if v := h.term.View(); v.Message.Priority != Answer || !strings.Contains(v.Message.String(), "Touch your player-ID pad") {
		t.Fatalf("the refusal is not told: %+v", v.Message)
	}
	g.mu.Lock()
	g.touched = true
	g.mu.Unlock()
	if _, err := h.term.Place(s17); !errors.Is(err, ErrNoPlayerCard) {
		t.Fatalf("no card: %v", err)
	}
	g.mu.Lock()
	g.card = "778899"
	g.mu.Unlock()
	if fb, err := h.term.Place(s17); err != nil || fb.Accepted != 100 {
		t.Fatalf("pad touched, card in: %+v %v", fb, err)
	}
}

// recorder is a fake Recorder that keeps what it is told.
type recorder struct {
	mu      sync.Mutex
	slips   []table.SlipAck
	settled []table.Settled
	dealer  []string
	fail    string                // DealerCashOut of this close id fails
	open    []table.AcceptedBuyIn // what OpenBuyIns returns: accepted before a restart, not done
}

func (r *recorder) SlipAcked(_ context.Context, _ roulette.Layout, a table.SlipAck) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.slips = append(r.slips, a)
	return nil
}

func (r *recorder) Settled(_ context.Context, s table.Settled) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settled = append(r.settled, s)
	return nil
}

func (r *recorder) BuyInAccepted(context.Context, table.AcceptedBuyIn) error { return nil }

func (r *recorder) BuyInDone(_ context.Context, b table.AcceptedBuyIn, credited int64, _ string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dealer = append(r.dealer, fmt.Sprintf("buy-in-confirmed %d", credited))
	return nil
}

func (r *recorder) OpenBuyIns(context.Context) ([]table.AcceptedBuyIn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.open), nil
}

func (r *recorder) DealerCashOut(_ context.Context, c table.AccountClosed) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.ID == r.fail {
		return errors.New("disk full")
	}
	r.dealer = append(r.dealer, fmt.Sprintf("dealer-cashout %s %d", c.ID, c.Amount))
	return nil
}

// The game records get the acknowledged slip before the screen shows it accepted, each
// settlement, and the dealer's cash-out — not the player's own cash-out to a ticket, which the
// cashier records.
func TestGameRecords(t *testing.T) {
	rec := &recorder{}
	h := newHarness(t, func(c *Config) { c.Records = rec })
	h.term.SelectChip(500)
	if _, err := h.term.Place(outside(t, roulette.Red, 0)); err != nil {
		t.Fatal(err)
	}
	h.waitFor(func(v View) bool { return v.Acked && v.SlipTotal == 500 })
	rec.mu.Lock()
	if len(rec.slips) != 1 || rec.slips[0].Total != 500 {
		t.Errorf("slips recorded: %+v", rec.slips)
	}
	rec.mu.Unlock()
	h.link.Push(table.Settled{RoundID: "R1", Number: 1, Recognised: true, Staked: 500, Returned: 1000, Balance: 10500, SlipVersion: 1})
	h.link.Push(table.AccountClosed{Reason: "cash-out", Amount: 10500, Ticket: &table.Ticket{Validation: "001234567890123456", Amount: 10500}})
	h.link.Push(table.AccountClosed{Reason: "directed to leave", Amount: 700, ID: "C1"})
	h.link.Push(table.BalanceChanged{Balance: 4242}) // a last event: once shown, all before it were handled
	h.waitFor(func(v View) bool { return v.Balance == 4242 })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.settled) != 1 || rec.settled[0].Returned != 1000 {
		t.Errorf("settlements recorded: %+v", rec.settled)
	}
	if len(rec.dealer) != 1 || rec.dealer[0] != "dealer-cashout C1 700" {
		t.Errorf("dealer money recorded: %v", rec.dealer)
	}
}

// A dealer close is acknowledged to the table once it is in the records, and only then: one the
// records could not take is left for the table to tell again.
func TestDealerClosesAcknowledgedOnceRecorded(t *testing.T) {
	rec := &recorder{fail: "C2"}
	h := newHarness(t, func(c *Config) { c.Records = rec })
	h.link.Push(table.AccountClosed{Reason: "dealer", Amount: 700, ID: "C1"})
	h.link.Push(table.AccountClosed{Reason: "dealer", Amount: 300, ID: "C2"})
	h.link.Push(table.AccountClosed{Reason: "dealer", Amount: 0, ID: "C3"})
	h.link.Push(table.BalanceChanged{Balance: 4242})
	h.waitFor(func(v View) bool { return v.Balance == 4242 })
	eventually(t, "two closes acknowledged", func() bool { return len(h.link.AckedCloses()) >= 2 })
	got := h.link.AckedCloses()
	slices.Sort(got)
	if !slices.Equal(got, []string{"C1", "C3"}) {
		t.Fatalf("acknowledged %v, want C1 and C3 (C2 was not recorded)", got)
	}
}

// A dealer buy-in the player has answered stays off the screen when a snapshot taken before the
// table had the answer, or a repeat of the offer, arrives after it: the player is never asked
// twice for the same money.
func TestAnsweredBuyInNotOfferedAgain(t *testing.T) {
	h := newHarness(t)
	h.link.Push(table.BuyInOffered{ID: "B1", Amount: 5000})
	h.waitFor(func(v View) bool { return v.BuyIn != nil && v.BuyIn.ID == "B1" })
	if err := h.term.ConfirmBuyIn(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	if v := h.term.View(); v.BuyIn != nil {
		t.Fatalf("offer still shown after the answer: %+v", v.BuyIn)
	}
	stale := table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100, 500, 2500}},
		Phase: table.PhaseWagering, RoundID: "R1", Deadline: h.clk.Now().Add(32 * time.Second),
		Limits: limits, Balance: 15000, AccountOpen: true, PendingBuyIn: &table.BuyInOffered{ID: "B1", Amount: 5000}}
	h.link.Push(stale)
	h.link.Push(table.BuyInOffered{ID: "B1", Amount: 5000})
	h.link.Push(table.BalanceChanged{Balance: 15001}) // a barrier: all before it were handled
	if v := h.waitFor(func(v View) bool { return v.Balance == 15001 }); v.BuyIn != nil {
		t.Fatalf("answered offer shown again: %+v", v.BuyIn)
	}
	h.link.Push(table.BuyInOffered{ID: "B2", Amount: 700})
	h.waitFor(func(v View) bool { return v.BuyIn != nil && v.BuyIn.ID == "B2" })
}

// A buy-in accepted before a restart, and not yet finished, is finished in the background with
// its own key and never offered to the player again, even by the table's first snapshot.
func TestBuyInAcceptedBeforeRestartNotOfferedAgain(t *testing.T) {
	h := startHarness(t, &recorder{open: []table.AcceptedBuyIn{{ID: "B1", Key: buyInKey("B1"), Amount: 5000}}})
	h.link.Push(table.Snapshot{Config: table.TableConfig{Layout: layout, Chips: []int64{100}},
		Phase: table.PhaseWagering, RoundID: "R1", Deadline: h.clk.Now().Add(32 * time.Second),
		Limits: limits, Balance: 0, AccountOpen: true, PendingBuyIn: &table.BuyInOffered{ID: "B1", Amount: 5000}})
	if v := h.waitFor(func(v View) bool { return v.RoundID == "R1" }); v.BuyIn != nil {
		t.Fatalf("a buy-in accepted before the restart offered again: %+v", v.BuyIn)
	}
	eventually(t, "the table asked for B1, once", func() bool { return slices.Equal(h.link.AskedBuyIns(), []string{"B1"}) })
}

// Views reach OnChange in the order they were made, even when two goroutines change the view
// at once: the screen ends on the newest view. (Told without the lock and each by its own
// goroutine, a balance update could overtake the answered buy-in and leave the offer shown.)
func TestViewsToldInOrder(t *testing.T) {
	clk := clocktest.New(start)
	term := New(Config{Link: apptest.NewLink(clk.Now, 0, time.Millisecond, layout, limits), Clock: clk})
	var mu sync.Mutex
	var told []int64
	entered, release := make(chan struct{}), make(chan struct{})
	term.OnChange(func(v View) {
		if v.Chip == 500 {
			close(entered)
			<-release // the first goroutine is slow to tell its view
		}
		mu.Lock()
		told = append(told, v.Chip)
		mu.Unlock()
	})
	first := make(chan struct{})
	go func() { term.SelectChip(500); close(first) }()
	<-entered
	term.SelectChip(2500) // a newer view, made while the older one is being told
	close(release)
	<-first
	var got []int64
	eventually(t, "both views told", func() bool {
		mu.Lock()
		defer mu.Unlock()
		got = slices.Clone(told)
		return len(got) == 2
	})
	if got[0] != 500 || got[1] != 2500 {
		t.Fatalf("views told %v: the newest (2500) must come last", got)
	}
	if v := term.View(); v.Chip != 2500 {
		t.Fatalf("view %d", v.Chip)
	}
}
