package console

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/console/model"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/ui/look"
)

func TestMain(m *testing.M) {
	if err := look.SetLanguage("en"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// fakeTable records the console's actions and answers with err.
type fakeTable struct {
	mu    sync.Mutex
	calls []string
	err   error
}

func (f *fakeTable) rec(format string, a ...any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf(format, a...))
	return f.err
}

func (f *fakeTable) OpenTable(context.Context) error  { return f.rec("open") }
func (f *fakeTable) CloseTable(context.Context) error { return f.rec("close") }
func (f *fakeTable) StartRound(context.Context) error { return f.rec("start") }
func (f *fakeTable) Spin(context.Context) error       { return f.rec("spin") }
func (f *fakeTable) NoMoreBets(context.Context) error { return f.rec("no-more-bets") }
func (f *fakeTable) Outcome(_ context.Context, n string) error {
	return f.rec("outcome %s", n)
}
func (f *fakeTable) ConfirmWheel(context.Context) error { return f.rec("confirm-wheel") }
func (f *fakeTable) NoSpin(context.Context) error       { return f.rec("no-spin") }
func (f *fakeTable) Dispute(_ context.Context, note string) error {
	return f.rec("dispute")
}
func (f *fakeTable) Credit(_ context.Context, seat string, cents int64) error {
	return f.rec("credit %s %d", seat, cents)
}
func (f *fakeTable) CloseAccount(_ context.Context, seat, reason string) (int64, error) {
	return 1000, f.rec("close-account %s %s", seat, reason)
}
func (f *fakeTable) PlaceNeighbours(_ context.Context, seat, n string, cents int64) (int64, string, error) {
	return 5 * cents, "", f.rec("neighbours %s %s %d", seat, n, cents)
}
func (f *fakeTable) PlaceWager(_ context.Context, seat string, w *pb.Wager) (int64, string, error) {
	return w.Amount, "", f.rec("wager %s %s %v %d %d", seat, strings.TrimPrefix(w.Kind.String(), "BET_KIND_"), w.Numbers, w.Which, w.Amount)
}
func (f *fakeTable) RefuseWager(_ context.Context, s model.Supervisor, seat, _ string) (int64, error) {
	return 1500, f.rec("refuse %s %s", s.Card, seat)
}
func (f *fakeTable) SetTableLimits(_ context.Context, s model.Supervisor, minimum, maximum int64) error {
	return f.rec("table-limits %s %d %d", s.Card, minimum, maximum)
}
func (f *fakeTable) SetSeatLimits(_ context.Context, s model.Supervisor, seat string, minimum, maximum int64) error {
	return f.rec("seat-limits %s %s %d %d", s.Card, seat, minimum, maximum)
}
func (f *fakeTable) LastRound() string { return "R41" }
func (f *fakeTable) Correct(_ context.Context, s model.Supervisor, round, n string) error {
	return f.rec("correct %s/%s %s %s", s.Card, s.PIN, round, n)
}
func (f *fakeTable) Invalidate(_ context.Context, s model.Supervisor, round, _ string) error {
	return f.rec("invalidate %s %s", s.Card, round)
}
func (f *fakeTable) ConfirmJackpot(_ context.Context, s model.Supervisor) error {
	return f.rec("jackpot %s", s.Card)
}
func (f *fakeTable) ClearFault(_ context.Context, s model.Supervisor, _ string) error {
	return f.rec("clear-fault %s", s.Card)
}
func (f *fakeTable) ScheduleClose(_ context.Context, s model.Supervisor, at time.Time) error {
	return f.rec("close-at %s %s", s.Card, at.Format("15:04"))
}
func (f *fakeTable) Handpay(_ context.Context, s model.Supervisor, v string) error {
	return f.rec("handpay %s %s", s.Card, v)
}
func (f *fakeTable) ReleaseHold(_ context.Context, s model.Supervisor, v, _ string) error {
	return f.rec("release %s %s", s.Card, v)
}

func (f *fakeTable) last() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		return ""
	}
	return f.calls[len(f.calls)-1]
}

var at = time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)

// busyTable is a table mid-round as the console sees it: seats in each state it shows.
func busyTable(w roulette.Wheel) model.View {
	return model.View{Up: true, TableID: "T7", Currency: "AUD", Wheel: w, Phase: pb.Phase_PHASE_WAGERING, RoundID: "R42",
		Deadline: at.Add(17 * time.Second), JackpotOn: true, Jackpot: 1234567, Conserved: true, Proposal: "",
		Limits:  &pb.Limits{Default: &pb.Limit{Min: 100, Max: 50000, Unit: 100}, TableMax: 10000000},
		History: []string{"17", "0", "32", "5", "14"}, Alarms: []string{"T03 player-call: the player at T03 calls the dealer"},
		Seats: []model.Seat{
			{ID: "T01", Connected: true, Open: true, Balance: 25000, Stake: 1500},
			{ID: "T02", Connected: true, Open: true, Balance: 0, Awaiting: 10000},
			{ID: "T03", Connected: true, Open: true, Balance: 4200, Calling: true},
			{ID: "T04", Connected: false, Open: true, Balance: 800, InService: "tech1 technician mode"},
			{ID: "T05", Connected: true, Open: true, Balance: 9900, Abstained: 3, Vacatable: true},
			{ID: "T06", Connected: true, Open: true, Balance: 70000, Stake: 20000, Limits: "5.00–500.00"},
			{ID: "T07", Connected: true, Open: true, Balance: 1200, CashOut: true},
			{ID: "G01", Guest: true, Open: true, Balance: 50000, Stake: 2500},
			{ID: "G02", Guest: true, Open: true, Balance: 0, Awaiting: 20000},
		}}
}

var sizes = []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)}

// screenAt is the console at a size, its actions answered at once (so a golden shows the
// answer).
func screenAt(t *testing.T, f *fakeTable, v model.View, size fyne.Size) (*Screen, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(look.Base())
	s := New(f, func() time.Time { return at }, size)
	s.run, s.do = func(f func()) { f() }, func(f func()) { f() }
	s.tickDo = func(func()) {}
	w := test.NewTempWindow(t, s.Content())
	w.SetPadded(false)
	w.Resize(size)
	s.Show(v)
	t.Cleanup(s.Stop)
	return s, w
}

// tapWords is a tap's words on the screen in the language spoken: a guest's seat reads its id
// and "guest" translated.
func tapWords(tap string) string {
	if id, ok := strings.CutSuffix(tap, " · guest"); ok {
		return id + " · " + T("guest")
	}
	return T(tap)
}

// tapText taps the touch target that reads text.
func tapText(t *testing.T, s *Screen, text string) {
	t.Helper()
	var hit *target
	walk(s.Content(), func(o fyne.CanvasObject) {
		if tg, ok := o.(*target); ok && tg.onTap != nil && len(tg.lines) > 0 && tg.lines[0].Text == text {
			hit = tg
		}
	})
	if hit == nil {
		t.Fatalf("no target reads %q", text)
	}
	test.Tap(hit)
}

func walk(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch c := o.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			walk(ch, f)
		}
	case *container.Scroll:
		walk(c.Content, f)
	}
}

// Every screen of the console, at both panel sizes, in English and Chinese: the goldens.
func TestConsoleScreens(t *testing.T) {
	t.Cleanup(func() { look.SetLanguage("en") })
	screens := []struct {
		name  string
		wheel roulette.Wheel
		view  func(model.View) model.View
		taps  []string
		err   error
	}{
		{name: "round", wheel: roulette.SingleZero},
		{name: "wheel-proposal", wheel: roulette.SingleZero, view: func(v model.View) model.View {
			v.Phase, v.Proposal, v.Deadline = pb.Phase_PHASE_NO_MORE_BETS, "32", time.Time{}
			return v
		}},
		{name: "grid-double-zero", wheel: roulette.DoubleZero, taps: []string{"Enter the outcome"}},
		{name: "confirm", wheel: roulette.SingleZero, taps: []string{"Enter the outcome", "17"}},
		{name: "seat-credit", wheel: roulette.SingleZero, taps: []string{"T02", "2", "5", "0"}},
		{name: "refused", wheel: roulette.SingleZero, taps: []string{"T02", "9", "9", "9", "9", "9", "9", "Credit buy-in"},
			err: status.Error(codes.InvalidArgument, "amount 99999900: must be positive and at most the table's maximum balance 100000.00")},
		{name: "guest-seat", wheel: roulette.SingleZero, taps: []string{"G01 · guest", "2", "5"}},
		{name: "guest-bets", wheel: roulette.SingleZero, taps: []string{"G01 · guest", "2", "5", "Place a bet"}},
		{name: "guest-inside-corner", wheel: roulette.SingleZero, taps: []string{"G01 · guest", "2", "5", "Place a bet", "Split / street / corner / line", "21", "17", "18", "20"}},
		{name: "supervisor-pin", wheel: roulette.SingleZero, taps: []string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1"}},
		{name: "supervisor", wheel: roulette.SingleZero, taps: []string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next"}},
		{name: "supervisor-refuse", wheel: roulette.SingleZero, taps: []string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next", "Refuse a seat's wager"}},
		{name: "supervisor-limits", wheel: roulette.SingleZero, taps: []string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next", "Set limits", "3", "0", "0"}},
		{name: "supervisor-seat-limits", wheel: roulette.SingleZero, taps: []string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next", "Set limits", "3", "0", "0", "A seat's maximum"}},
		{name: "supervisor-handpay-cash-cap", wheel: roulette.SingleZero, err: cashCapRefusal,
			taps: append([]string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next", "Handpay a ticket"}, append(strings.Split("123456789012345678", ""), "Confirm")...)},
		{name: "lost", wheel: roulette.SingleZero, view: func(v model.View) model.View {
			v.Up, v.Lost = false, "the table server cannot be reached: reconnecting"
			v.RedLight, v.Fault = true, "dispute: the ball left the wheel"
			return v
		}},
	}
	for _, language := range []string{"en", "zh_Hans"} {
		if err := look.SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		for _, size := range sizes {
			for _, sc := range screens {
				v := busyTable(sc.wheel)
				if sc.view != nil {
					v = sc.view(v)
				}
				f := &fakeTable{err: sc.err}
				s, w := screenAt(t, f, v, size)
				for _, tap := range sc.taps {
					tapText(t, s, tapWords(tap))
				}
				name := fmt.Sprintf("%s_%dx%d_%s.png", sc.name, int(size.Width), int(size.Height), language)
				test.AssertImageMatches(t, name, w.Canvas().Capture())
			}
		}
	}
}

// The outcome goes to the table only from its confirmation step, never from the grid's touch.
func TestConsoleOutcomeEnteredOnlyAfterItsConfirmation(t *testing.T) {
	f := &fakeTable{}
	s, _ := screenAt(t, f, busyTable(roulette.SingleZero), sizes[1])
	tapText(t, s, T("Enter the outcome"))
	tapText(t, s, "17")
	if f.last() != "" {
		t.Fatalf("a touch on the grid sent %q before its confirmation", f.last())
	}
	tapText(t, s, T("Back")) // a wrong number: back to the grid, nothing sent
	tapText(t, s, "18")
	tapText(t, s, T("Confirm"))
	if f.last() != "outcome 18" {
		t.Fatalf("the confirmed outcome sent as %q", f.last())
	}
}

// The grid is the table's wheel: 00 only on a double-zero wheel.
func TestConsoleGridIsTheTablesWheel(t *testing.T) {
	for _, c := range []struct {
		w    roulette.Wheel
		want int
	}{{roulette.SingleZero, 37}, {roulette.DoubleZero, 38}} {
		s, _ := screenAt(t, &fakeTable{}, busyTable(c.w), sizes[0])
		tapText(t, s, T("Enter the outcome"))
		n, zz := 0, false
		walk(s.Content(), func(o fyne.CanvasObject) {
			if tg, ok := o.(*target); ok && tg.onTap != nil && len(tg.lines) == 1 {
				if _, err := roulette.ParseNumber(tg.lines[0].Text); err == nil {
					n++
					zz = zz || tg.lines[0].Text == "00"
				}
			}
		})
		if n != c.want || zz != (c.w == roulette.DoubleZero) {
			t.Errorf("wheel %v: %d numbers on the grid (00: %v), want %d", c.w, n, zz, c.want)
		}
	}
}

// A buy-in credits the amount typed on the pad, in whole units, to the seat touched.
func TestConsoleCreditsTheAmountTyped(t *testing.T) {
	f := &fakeTable{}
	s, _ := screenAt(t, f, busyTable(roulette.SingleZero), sizes[1])
	tapText(t, s, "T02")
	for _, k := range []string{"2", "5", "0", "⌫", "0"} {
		tapText(t, s, k)
	}
	tapText(t, s, T("Credit buy-in"))
	if f.last() != "credit T02 25000" {
		t.Fatalf("the buy-in sent as %q", f.last())
	}
	tapText(t, s, T("Cash out at the dealer"))
	if f.last() != "close-account T02 dealer" {
		t.Fatalf("the cash-out sent as %q", f.last())
	}
}

// A guest's seat (000 §11.3.1, §11.7): the chips the guest hands over bought in, any bet the
// guest announces placed with the pad's amount (an even-money bet, a dozen, a number straight
// up from the grid after its confirmation), the balance paid out in chips. A terminal's seat
// offers none of the guest's buttons: its player buys in and bets at the terminal.
func TestConsoleGuestSeatBuysInPlacesAnyBetAndPaysOutInChips(t *testing.T) {
	f := &fakeTable{}
	s, _ := screenAt(t, f, busyTable(roulette.SingleZero), sizes[1])
	tapText(t, s, "G02 · "+T("guest"))
	for _, k := range []string{"2", "5"} {
		tapText(t, s, k)
	}
	steps := []struct {
		taps []string
		want string
	}{
		{[]string{"Buy in chips"}, "credit G02 2500"},
		{[]string{"Place a bet", "Red"}, "wager G02 RED [] 0 2500"},
		{[]string{"Place a bet", "Dozen 2"}, "wager G02 DOZEN [] 2 2500"},
		{[]string{"Place a bet", "19–36"}, "wager G02 HIGH [] 0 2500"},
		{[]string{"Place a bet", "Voisins du zéro"}, "wager G02 VOISINS [] 0 2500"},
		{[]string{"Place a bet", "Straight up", "17", "Confirm"}, "wager G02 STRAIGHT [17] 0 2500"},
		{[]string{"Pay out in chips"}, "close-account G02 dealer"},
	}
	for _, st := range steps {
		for _, k := range st.taps {
			tapText(t, s, T(k))
		}
		if f.last() != st.want {
			t.Fatalf("after %v: sent %q, want %q", st.taps, f.last(), st.want)
		}
	}
	s.back()
	tapText(t, s, "T02")
	walk(s.Content(), func(o fyne.CanvasObject) {
		if tg, ok := o.(*target); ok && len(tg.lines) > 0 {
			if w := tg.lines[0].Text; w == T("Buy in chips") || w == T("Place a bet") || w == T("Pay out in chips") {
				t.Errorf("a terminal's seat offers the guest's %q", w)
			}
		}
	})
}

// A new guest player is bought in from the console alone (000 §11.3.1, §11.7): the seats end
// with the next free guest account (G03 at a table with G01 and G02), whose panel is a guest's
// before the account exists; its buy-in creates it. With all twelve in use there is none.
func TestConsoleNewGuestBoughtInFromThePanel(t *testing.T) {
	f := &fakeTable{}
	s, _ := screenAt(t, f, busyTable(roulette.SingleZero), sizes[0])
	tapText(t, s, "+ "+T("New guest"))
	for _, k := range []string{"4", "0"} {
		tapText(t, s, k)
	}
	tapText(t, s, T("Buy in chips"))
	if f.last() != "credit G03 4000" {
		t.Fatalf("sent %q, want the new guest G03 credited 40.00", f.last())
	}
	v := busyTable(roulette.SingleZero)
	for i := 3; i <= 12; i++ {
		v.Seats = append(v.Seats, model.Seat{ID: fmt.Sprintf("G%02d", i), Guest: true, Open: true})
	}
	if id, ok := v.NextGuest(); ok {
		t.Fatalf("twelve guests seated, and %s is offered", id)
	}
}

// A supervisor's action carries the card and PIN typed on the pad; signing out forgets them.
func TestConsoleSupervisorActionCarriesTheCardAndPIN(t *testing.T) {
	f := &fakeTable{}
	s, _ := screenAt(t, f, busyTable(roulette.SingleZero), sizes[0])
	for _, k := range []string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next", "Correct the outcome", "17", "Confirm"} {
		tapText(t, s, T(k))
	}
	if f.last() != "correct S12/4321 R41 17" {
		t.Fatalf("the correction sent as %q", f.last())
	}
	tapText(t, s, T("Sign out"))
	if s.sup != nil || s.card != "" || s.pin != "" {
		t.Fatal("the supervisor's credentials kept after signing out")
	}
}

// The supervisor's Refuse a seat's wager offers the seats with a stake this round and refuses
// the one touched, with the card and PIN; Set limits sets the table's minimum or maximum, or a
// seat's own maximum, to the amount typed (whole units), each with the card and PIN.
func TestConsoleSupervisorRefusesAWagerAndSetsLimits(t *testing.T) {
	f := &fakeTable{}
	s, _ := screenAt(t, f, busyTable(roulette.SingleZero), sizes[1])
	for _, k := range []string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next", "Refuse a seat's wager"} {
		tapText(t, s, T(k))
	}
	for _, seat := range []string{"T02", "T03", "G02"} { // no stake: nothing to refuse
		walk(s.Content(), func(o fyne.CanvasObject) {
			if tg, ok := o.(*target); ok && s.mode == "refuse" && len(tg.lines) > 0 && strings.HasPrefix(tg.lines[0].Text, seat+" · A$") {
				t.Errorf("%s, with no stake, offered for a refusal", seat)
			}
		})
	}
	tapText(t, s, "T06 · A$200.00")
	if f.last() != "refuse S12 T06" {
		t.Fatalf("the refusal sent as %q", f.last())
	}
	steps := []struct {
		taps []string
		want string
	}{
		{[]string{"Back", "Set limits", "3", "0", "0", "Table maximum"}, "table-limits S12 100 30000"},
		{[]string{"C", "2", "Table minimum"}, "table-limits S12 200 50000"},
		{[]string{"C", "1", "5", "0", "A seat's maximum", "T01"}, "seat-limits S12 T01 100 15000"},
	}
	for _, st := range steps {
		for _, k := range st.taps {
			tapText(t, s, T(k))
		}
		if f.last() != st.want {
			t.Fatalf("after %v: sent %q, want %q", st.taps, f.last(), st.want)
		}
	}
}

// Every touch target of every panel is at least minTarget pixels each way, at both sizes.
func TestConsoleTargetsAtLeast15mm(t *testing.T) {
	panels := [][]string{nil, {"Enter the outcome"}, {"Enter the outcome", "17"}, {"T02"}, {"Supervisor"},
		{"Supervisor", "1", "Next", "1", "Next"}, {"Supervisor", "1", "Next", "1", "Next", "Refuse a seat's wager"},
		{"Supervisor", "1", "Next", "1", "Next", "Set limits"}, {"Supervisor", "1", "Next", "1", "Next", "Set limits", "A seat's maximum"}, {"G01 · guest"}, {"G01 · guest", "Place a bet"},
		{"G01 · guest", "Place a bet", "Split / street / corner / line", "17", "20"}}
	for _, size := range sizes {
		for _, taps := range panels {
			s, _ := screenAt(t, &fakeTable{}, busyTable(roulette.DoubleZero), size)
			for _, k := range taps {
				tapText(t, s, tapWords(k))
			}
			n := 0
			walk(s.Content(), func(o fyne.CanvasObject) {
				if tg, ok := o.(*target); ok && tg.onTap != nil && o.Visible() {
					n++
					if sz := tg.Size(); sz.Width < minTarget || sz.Height < minTarget {
						t.Errorf("%v after %v: %q is %.0f×%.0f px", size, taps, tg.lines[0].Text, sz.Width, sz.Height)
					}
				}
			})
			if n < 10 {
				t.Fatalf("%v after %v: only %d targets found: the walk is broken", size, taps, n)
			}
		}
	}
}

// A touch target stays the same widget while the table changes around it and the countdown
// moves: one rebuilt between a finger's press and its release loses the touch (seen in the
// real window: No more bets did nothing while the countdown ran).
func TestConsoleTouchTargetSurvivesATableChange(t *testing.T) {
	s, _ := screenAt(t, &fakeTable{}, busyTable(roulette.SingleZero), sizes[0])
	find := func(text string) *target {
		var hit *target
		walk(s.Content(), func(o fyne.CanvasObject) {
			if tg, ok := o.(*target); ok && len(tg.lines) > 0 && tg.lines[0].Text == text {
				hit = tg
			}
		})
		if hit == nil {
			t.Fatalf("no target reads %q", text)
		}
		return hit
	}
	before, seat := find(T("No more bets")), find("T01")
	v := busyTable(roulette.SingleZero)
	v.Jackpot += 100
	v.Alarms = append(v.Alarms, "T05 another alarm")
	s.Show(v) // a change of the table that is not the panel's nor the seats'
	s.draw()  // the countdown's second
	if find(T("No more bets")) != before || find("T01") != seat {
		t.Fatal("the targets were built again for a change they do not show")
	}
}

// panelTitle is the inside grid's title: the bet the numbers touched make, or why none.
func panelTitle(t *testing.T, s *Screen) string {
	t.Helper()
	var title string
	walk(s.panel, func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok && title == "" {
			title = tx.Text
		}
	})
	return title
}

// placeTarget is the inside grid's Place.
func placeTarget(t *testing.T, s *Screen) *target {
	t.Helper()
	var hit *target
	walk(s.Content(), func(o fyne.CanvasObject) {
		if tg, ok := o.(*target); ok && len(tg.lines) > 0 && tg.lines[0].Text == T("Place") {
			hit = tg
		}
	})
	if hit == nil {
		t.Fatal("no Place on the inside grid")
	}
	return hit
}

// A guest's inside bet built by touch (000 §11.4.2(b)): each number touched is taken, touched
// again released; the panel names the bet the numbers make at this table and its odds as the
// dealer builds it, and Place sends that bet — its kind and its numbers in the layout's order —
// at the pad's amount.
func TestConsoleGuestInsideBetNamedAsBuiltAndPlaced(t *testing.T) {
	for _, c := range []struct {
		wheel   roulette.Wheel
		profile roulette.Profile
		touched []string
		title   string
		sent    string
	}{
		{roulette.SingleZero, 0, []string{"20", "17"}, "Split 17–20 · Pays 17 to 1", "wager G01 SPLIT [17 20] 0 2500"},
		{roulette.SingleZero, 0, []string{"21", "17", "18", "20"}, "Corner 17-18-20-21 · Pays 8 to 1", "wager G01 CORNER [17 18 20 21] 0 2500"},
		{roulette.SingleZero, 0, []string{"16", "17", "18"}, "Street 16-17-18 · Pays 11 to 1", "wager G01 STREET [16 17 18] 0 2500"},
		{roulette.SingleZero, 0, []string{"18", "13", "14", "15", "16", "17"}, "Six line 13–18 · Pays 5 to 1", "wager G01 SIX_LINE [13 14 15 16 17 18] 0 2500"},
		{roulette.SingleZero, 0, []string{"0", "1", "2", "3"}, "Basket 0-1-2-3 · Pays 8 to 1", "wager G01 CORNER [0 1 2 3] 0 2500"},
		{roulette.SingleZero, 0, []string{"2", "1", "0"}, "Trio 0-1-2 · Pays 11 to 1", "wager G01 STREET [0 1 2] 0 2500"},
		{roulette.DoubleZero, roulette.CrownFH, []string{"3", "00", "2", "1", "0"}, "Five line 0-00-1-2-3 · Pays 6 to 1", "wager G01 FIVE_LINE [0 00 1 2 3] 0 2500"},
		{roulette.SingleZero, 0, []string{"17"}, "Straight up 17 · Pays 35 to 1", "wager G01 STRAIGHT [17] 0 2500"},
	} {
		v := busyTable(c.wheel)
		v.Profile = c.profile
		f := &fakeTable{}
		s, _ := screenAt(t, f, v, sizes[1])
		for _, k := range []string{"G01 · guest", "2", "5", "Place a bet", "Split / street / corner / line"} {
			tapText(t, s, tapWords(k))
		}
		for _, n := range c.touched {
			tapText(t, s, n)
		}
		if got := panelTitle(t, s); got != c.title {
			t.Errorf("%v touched: the panel says %q, want %q", c.touched, got, c.title)
		}
		tapText(t, s, T("Place"))
		if f.last() != c.sent {
			t.Errorf("%v touched: sent %q, want %q", c.touched, f.last(), c.sent)
		}
	}
	// Touched again, a number is released: the corner less 21 is no bet; 21 again, the corner.
	s, _ := screenAt(t, &fakeTable{}, busyTable(roulette.SingleZero), sizes[0])
	for _, k := range []string{"G01 · guest", "Place a bet", "Split / street / corner / line", "17", "18", "20", "21", "21"} {
		tapText(t, s, tapWords(k))
	}
	if got := panelTitle(t, s); got != "17, 18, 20: not a bet at this table" {
		t.Errorf("21 released: the panel says %q", got)
	}
	tapText(t, s, "21")
	if got := panelTitle(t, s); got != "Corner 17-18-20-21 · Pays 8 to 1" {
		t.Errorf("21 touched again: the panel says %q", got)
	}
}

// A selection that is no bet of this table — two numbers apart, two rows of three that do not
// touch, a five-line on a single-zero wheel or on a felt without it, seven numbers — is said
// so, and Place does nothing: nothing reaches the table.
func TestConsoleInvalidInsideSelectionCannotBePlaced(t *testing.T) {
	for _, c := range []struct {
		wheel   roulette.Wheel
		touched []string
	}{
		{roulette.SingleZero, []string{"17", "23"}},
		{roulette.SingleZero, []string{"10", "11", "12", "16", "17", "18"}},
		{roulette.SingleZero, []string{"0", "1", "2", "3", "4"}},
		{roulette.DoubleZero, []string{"0", "00", "1", "2", "3"}}, // crown-rapid: no five-line (001 §10.4.3)
		{roulette.SingleZero, []string{"1", "2", "3", "4", "5", "6", "7"}},
		{roulette.SingleZero, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"}},
	} {
		f := &fakeTable{}
		s, _ := screenAt(t, f, busyTable(c.wheel), sizes[1])
		for _, k := range []string{"G01 · guest", "2", "5", "Place a bet", "Split / street / corner / line"} {
			tapText(t, s, tapWords(k))
		}
		for _, n := range c.touched {
			tapText(t, s, n)
		}
		want := touched(c.touched) + ": not a bet at this table"
		if got := panelTitle(t, s); got != want {
			t.Errorf("%v touched: the panel says %q, want %q", c.touched, got, want)
		}
		p := placeTarget(t, s)
		if p.onTap != nil {
			t.Errorf("%v touched: Place is live", c.touched)
		}
		test.Tap(p)
		if f.last() != "" {
			t.Errorf("%v touched: %q sent", c.touched, f.last())
		}
	}
}

// cashCapRefusal is the table's refusal of a hand payment in cash over the cash cap (issue 31).
var cashCapRefusal = func() error {
	const words = "A$5,000.00 is over the A$1,000.00 cash cap: pay A$1,000.00 in cash and A$4,000.00 by electronic transfer or cheque, with the patron's ID recorded"
	st, err := status.New(codes.FailedPrecondition, words).WithDetails(&pb.CageTicket{ValidationNumber: "123456789012345678", Amount: 500000,
		Refusal: pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP, Message: words})
	if err != nil {
		panic(err)
	}
	return st.Err()
}()

// Issue 31, the cash cap on a supervisor's handpay: the table refuses a A$5,000.00 ticket in
// cash, and the handpay panel itself shows the split the table asks for, word for word (not
// only the one-line notice at the bottom, which cuts it); any other refusal leaves the panel
// as it was, and leaving the panel forgets the split.
func TestConsoleHandpayShowsTheCashCapSplitOnThePanel(t *testing.T) {
	for _, size := range sizes {
		f := &fakeTable{err: cashCapRefusal}
		s, _ := screenAt(t, f, busyTable(roulette.SingleZero), size)
		for _, k := range append([]string{"Supervisor", "1", "2", "Next", "4", "3", "2", "1", "Next", "Handpay a ticket"}, append(strings.Split("123456789012345678", ""), "Confirm")...) {
			tapText(t, s, T(k))
		}
		if f.last() != "handpay S12 123456789012345678" {
			t.Fatalf("the handpay sent as %q", f.last())
		}
		panel := panelText(s)
		for _, want := range []string{"over the A$1,000.00 cash cap", "pay A$1,000.00 in cash and A$4,000.00 by electronic transfer or cheque", "with the patron's ID recorded", "dealer handpay"} {
			if !strings.Contains(panel, want) {
				t.Fatalf("%v: the handpay panel does not say %q: %q", size, want, panel)
			}
		}
		tapText(t, s, T("Back"))
		tapText(t, s, T("Handpay a ticket"))
		if strings.Contains(panelText(s), "cash cap") {
			t.Fatalf("the split kept after leaving the panel: %q", panelText(s))
		}
		f.err = status.Error(codes.NotFound, "no ticket 123456789012345678")
		for _, k := range append(strings.Split("123456789012345678", ""), "Confirm") {
			tapText(t, s, T(k))
		}
		if strings.Contains(panelText(s), "cash cap") {
			t.Fatalf("another refusal shows a split: %q", panelText(s))
		}
	}
}

// panelText is the right-hand panel's words, joined by spaces.
func panelText(s *Screen) string {
	var b []string
	walk(s.panel, func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok {
			b = append(b, tx.Text)
		}
	})
	return strings.Join(b, " ")
}
