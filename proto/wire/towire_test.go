package wire

import (
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// Every event the server sends makes the round trip model → wire bytes → model unchanged: what
// EventPB writes, EventOf reads back, field for field.
func TestEventsRoundTrip(t *testing.T) {
	// The Asian racetrack's groups travel in the config (002 §3.2).
	layout := roulette.Layout{Wheel: roulette.DoubleZero, Profile: roulette.Star, Asian: roulette.DefaultAsianGroups(roulette.DoubleZero)}
	at := func(s int64) time.Time { return time.Unix(1_800_000_000+s, 123456789) } // as Time reads it back
	limits := roulette.Limits{Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100}, TableMax: 200000, AggregateMin: 500,
		PerKind: map[roulette.Kind]roulette.Limit{roulette.Straight: {Min: 100, Max: 2500, Unit: 100}}}
	higher := limits
	higher.AggregateMin = 1000
	bet := func(s roulette.BetSpec) roulette.Bet {
		b, err := roulette.ParseBet(layout, s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	spread := 2
	slip := &table.SlipAck{RoundID: "R000007", Version: 3, Total: 2600,
		Bets: []table.SlipBet{{Bet: bet(roulette.BetSpec{Name: "straight", Numbers: []string{"00"}}), Amount: 100},
			{Bet: bet(roulette.BetSpec{Name: "red"}), Amount: 1000},
			{Bet: bet(roulette.BetSpec{Name: "neighbours", Numbers: []string{"17"}, Spread: &spread}), Amount: 300, PlacedBy: "dealer:D1"},
			// 002 §3.2 Asian Neighbour; each wager carries its player card (003 §3.4, §9.1)
			{Bet: bet(roulette.BetSpec{Name: "asian-neighbour", Numbers: []string{"1", "13", "36"}}), Amount: 200, Card: "PC-0042"}},
		Results: []table.BetResult{{Accepted: 100}, {Accepted: 1000}, {Accepted: 1500, Reason: "balance"}, {Accepted: 200}}}
	draw := roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{1, 0, roulette.DoubleZeroNumber, 36},
		Mega: roulette.BallBlue, HasMega: true}
	settled := table.Settled{RoundID: "R000007", Number: roulette.DoubleZeroNumber, Recognised: true, Staked: 2600,
		Returned: 3600, Balance: 11000, ReturnedPerBet: []int64{3600, 0, 0}, Correction: true, SlipVersion: 3}
	ticket := &table.Ticket{Validation: "123456789012345678", Amount: 11000, Number: 42, Issued: at(1), Expires: at(90 * 86400),
		TerminalID: "T07", Venue: "Demo Casino", State: "issued"}
	snapshot := table.Snapshot{TerminalID: "T07",
		Config: table.TableConfig{TableID: "T1", Layout: layout, RulesProfile: "vic-1999", Chips: []int64{100, 500, 2500},
			WageringPeriod: 30 * time.Second, Warning: 5 * time.Second, LuckyBall: true, LuckyBallVersion: roulette.LuckyMega,
			Racetrack: true, Jackpot: true, PlayerCardRequired: true, IDPadRequired: true, Venue: "Demo Casino", Currency: "AUD",
			DealerCashOnly: true},
		Phase: table.PhaseWagering, RoundID: "R000007", Deadline: at(30), Limits: limits,
		Pending: &table.PendingLimits{Limits: higher, At: at(1200)}, Balance: 8400, AccountOpen: true, Frozen: true,
		History: []table.Outcome{{RoundID: "R000006", Number: 0, At: at(-60), Corrected: true},
			{RoundID: "R000005", Number: 36, At: at(-120), Invalidated: true}},
		Slip: slip, LuckyBall: &draw, Jackpot: 100001, PendingBuyIn: &table.BuyInOffered{ID: "B1", Amount: 5000},
		LastSettled: &settled, PlayerLimits: &higher,
		DealerCloses: []table.AccountClosed{{Reason: "directed-to-leave", Amount: 1500, ID: "C2", At: at(-5)},
			{Reason: "dealer", ID: "C1", At: at(-50)}},
		ClosingAt: at(1500)}
	for _, ev := range []table.Event{
		snapshot,
		table.Snapshot{Config: table.TableConfig{Layout: roulette.Layout{Wheel: roulette.SingleZero}}, Phase: table.PhaseClosed, Limits: limits},
		table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R000007", Deadline: at(29), BallDropping: true},
		table.PhaseChanged{Phase: table.PhaseIdle},
		table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R000007", Deadline: at(29), NoSpin: true},
		table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R000007", Number: roulette.DoubleZeroNumber, At: at(40)}},
		table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R000007", Number: 0, At: at(45), Corrected: true}},
		settled,
		table.Settled{RoundID: "R000008", Number: 5},
		table.BalanceChanged{Balance: 12000, Delta: -1000, Reason: "jackpot"},
		table.LimitsChanged{Limits: limits, Pending: &table.PendingLimits{Limits: higher, At: at(1200)}},
		table.LimitsChanged{Limits: higher},
		table.LimitsChanged{Limits: higher, Warning: 7 * time.Second},
		table.FrozenChanged{Frozen: true, Reason: "correcting the result of R000007"},
		table.FrozenChanged{},
		table.RoundVoided{RoundID: "R000007", Reason: "invalidated: dealer error", Refunded: 2600, Balance: 11000},
		table.BuyInOffered{ID: "B9", Amount: 5000},
		table.AccountClosed{Reason: "cash-out", Amount: 11000, Ticket: ticket},
		table.AccountClosed{Reason: "dealer", Amount: 700, ID: "C3", At: at(7)},
		table.LuckyBallDrawn{RoundID: "R000007", Draw: draw},
		table.LuckyBallDrawn{RoundID: "R000008", Draw: roulette.LuckyBallDraw{Numbers: [4]roulette.Number{4, 5, 6, 7}}},
		table.LuckyBallDrawn{RoundID: "R000009", Draw: roulette.LuckyBallDraw{Numbers: [4]roulette.Number{4, 5, 6, 7}, Void: true}},
		table.JackpotMeter{Amount: 123456},
		table.PlayerLimitsChanged{Limits: &higher}, // 000 §4.3, 003 §4.6
		table.PlayerLimitsChanged{},
		table.TableClosing{At: at(1200)},
		table.DealerWagerPlaced{Slip: *slip},
		table.TableClosing{},
		table.JackpotWon{RoundID: "R000007", TerminalID: "T07", Amount: 100001, Confirmed: true},
		table.JackpotWon{RoundID: "R000008", TerminalID: "T07", Amount: 100002, Void: true},                 // 001 §8.8
		table.SlipCarried{Slip: *slip},                                                                      // 004 §3.6(b)
		table.WagerRefused{Slip: *slip, Refused: slip.Bets[:1], Reason: "past-post", By: "supervisor:pit1"}, // 003 §9.12
	} {
		msg, err := EventPB(ev)
		if err != nil {
			t.Fatalf("%T: %v", ev, err)
		}
		b, err := proto.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		var read pb.TableEvent
		if err := proto.Unmarshal(b, &read); err != nil {
			t.Fatal(err)
		}
		got, err := EventOf(&read, layout)
		if err != nil {
			t.Fatalf("%T: reading back %v: %v", ev, &read, err)
		}
		if !reflect.DeepEqual(got, ev) {
			t.Errorf("%T round trip:\n got %#v\nwant %#v", ev, got, ev)
		}
	}
	if msg, err := EventPB(table.Connection{Up: true}); err == nil {
		t.Errorf("the client's own Connection event written for the wire: %v", msg)
	}
}

// What a terminal reads is checked: a malformed message is an error naming it, never a zero
// value passed on.
func TestEventOfRefusesMalformed(t *testing.T) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	good := func() *pb.Snapshot {
		return &pb.Snapshot{Config: &pb.TableConfig{Wheel: pb.Wheel_WHEEL_SINGLE_ZERO}, Limits: LimitsPB(roulette.Limits{})}
	}
	snap := func(change func(*pb.Snapshot)) *pb.TableEvent {
		s := good()
		change(s)
		return &pb.TableEvent{Event: &pb.TableEvent_Snapshot{Snapshot: s}}
	}
	if _, err := EventOf(snap(func(*pb.Snapshot) {}), l); err != nil {
		t.Fatalf("a well-formed snapshot: %v", err)
	}
	for name, ev := range map[string]*pb.TableEvent{
		"no event":                {},
		"outcome no number":       {Event: &pb.TableEvent_Outcome{Outcome: &pb.OutcomeEntered{Outcome: &pb.Outcome{RoundId: "R1", Number: "x"}}}},
		"outcome missing":         {Event: &pb.TableEvent_Outcome{Outcome: &pb.OutcomeEntered{}}},
		"settled off the wheel":   {Event: &pb.TableEvent_Settled{Settled: &pb.Settled{RoundId: "R1", Number: "99"}}},
		"limits min above max":    {Event: &pb.TableEvent_Limits{Limits: &pb.LimitsChanged{Limits: &pb.Limits{Default: &pb.Limit{Min: 500, Max: 100, Unit: 100}}}}},
		"limits unknown bet":      {Event: &pb.TableEvent_Limits{Limits: &pb.LimitsChanged{Limits: &pb.Limits{PerBet: map[string]*pb.Limit{"sideways": {Min: 1, Max: 2, Unit: 1}}}}}},
		"lucky ball missing":      {Event: &pb.TableEvent_LuckyBall{LuckyBall: &pb.LuckyBallDrawn{RoundId: "R1"}}},
		"lucky ball bad colour":   {Event: &pb.TableEvent_LuckyBall{LuckyBall: &pb.LuckyBallDrawn{Draw: &pb.LuckyBallDraw{Red: "1", Green: "2", Blue: "3", Yellow: "4", Super: "mauve"}}}},
		"lucky ball bad number":   {Event: &pb.TableEvent_LuckyBall{LuckyBall: &pb.LuckyBallDrawn{Draw: &pb.LuckyBallDraw{Red: "1", Green: "2", Blue: "3", Yellow: "y"}}}},
		"jackpot won no terminal": {Event: &pb.TableEvent_JackpotWon{JackpotWon: &pb.JackpotWon{RoundId: "R1", Amount: 5}}},
		"jackpot confirmed and void": {Event: &pb.TableEvent_JackpotWon{JackpotWon: &pb.JackpotWon{RoundId: "R1", TerminalId: "T1", Amount: 5,
			Confirmed: true, Void: true}}},
		"slip carried no slip":    {Event: &pb.TableEvent_SlipCarried{SlipCarried: &pb.SlipCarried{}}},
		"slip carried no version": {Event: &pb.TableEvent_SlipCarried{SlipCarried: &pb.SlipCarried{Slip: &pb.Slip{RoundId: "R1"}}}},
		"slip carried bad wager": {Event: &pb.TableEvent_SlipCarried{SlipCarried: &pb.SlipCarried{Slip: &pb.Slip{RoundId: "R1", Version: 1,
			Wagers: []*pb.Wager{{Kind: pb.BetKind(99)}}}}}},
		"snapshot unknown wheel": snap(func(s *pb.Snapshot) { s.Config.Wheel = pb.Wheel(9) }),
		"snapshot no config":     snap(func(s *pb.Snapshot) { s.Config = nil }),
		"snapshot bad profile":   snap(func(s *pb.Snapshot) { s.Config.LayoutProfile = "square" }),
		"snapshot bad history":   snap(func(s *pb.Snapshot) { s.History = []*pb.Outcome{{RoundId: "R1", Number: "37"}} }),
		"snapshot bad slip":      snap(func(s *pb.Snapshot) { s.Slip = &pb.Slip{Wagers: []*pb.Wager{{Kind: pb.BetKind(99)}}} }),
		"snapshot bad settled":   snap(func(s *pb.Snapshot) { s.LastSettled = &pb.Settled{Number: ""} }),
		"snapshot close no id":   snap(func(s *pb.Snapshot) { s.DealerCloses = []*pb.AccountClosed{{Amount: 100}} }),
		// 002 §3.2: the Asian racetrack's groups are checked as the table's are
		"snapshot asian group of 2": snap(func(s *pb.Snapshot) { s.Config.AsianGroups = []*pb.AsianGroup{{Numbers: []string{"1", "2"}}} }),
		"snapshot asian 00 on single": snap(func(s *pb.Snapshot) {
			s.Config.AsianGroups = []*pb.AsianGroup{{Numbers: []string{"1", "2", "00"}}}
		}),
		"snapshot asian groups overlap": snap(func(s *pb.Snapshot) {
			s.Config.AsianGroups = []*pb.AsianGroup{{Numbers: []string{"1", "2", "3"}}, {Numbers: []string{"3", "4", "5"}}}
		}),
		// 000 §4.3: a player's own limits are checked as the table's are
		"snapshot bad player limits": snap(func(s *pb.Snapshot) { s.PlayerLimits = &pb.Limits{Default: &pb.Limit{Min: 500, Max: 100}} }),
		"player limits min above max": {Event: &pb.TableEvent_PlayerLimits{PlayerLimits: &pb.PlayerLimitsChanged{
			Limits: &pb.Limits{Default: &pb.Limit{Min: 500, Max: 100, Unit: 100}}}}},
	} {
		if got, err := EventOf(ev, l); err == nil {
			t.Errorf("%s: read as %#v", name, got)
		}
	}
}

// A slip acknowledged as sent travels without its wagers (SlipResultsPB) and is read back
// with the wagers the terminal sent (SlipOfSent): the same acknowledgement as SlipPB/SlipOf
// gives, and a reply whose results do not fit the slip sent is refused.
func TestSlipAsSentRoundTrip(t *testing.T) {
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	s17, _ := layout.Inside(roulette.Straight, []roulette.Number{17})
	red, _ := layout.Outside(roulette.Red, 0)
	sent := []table.SlipBet{{Bet: roulette.Bet{Spot: s17}, Amount: 100, Card: "PC-1"}, {Bet: roulette.Bet{Spot: red}, Amount: 700}}
	ack := &table.SlipAck{RoundID: "R000002", Version: 9, Total: 800, Bets: sent,
		Results: []table.BetResult{{Accepted: 100}, {Accepted: 700, Reason: ""}}}
	b, err := proto.Marshal(SlipResultsPB(ack))
	if err != nil {
		t.Fatal(err)
	}
	var w pb.Slip
	if err := proto.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if len(w.Wagers) != 0 {
		t.Fatalf("the wagers were written: %v", &w)
	}
	got, err := SlipOfSent(&w, sent)
	if err != nil {
		t.Fatal(err)
	}
	full, err := SlipOf(SlipPB(ack), layout)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ack) || !reflect.DeepEqual(got, full) {
		t.Fatalf("as sent %+v; SlipOf %+v; want %+v", got, full, ack)
	}
	if _, err := SlipOfSent(&w, sent[:1]); err == nil {
		t.Fatal("two results for one wager sent: read")
	}
	if _, err := SlipOfSent(SlipPB(ack), sent); err == nil {
		t.Fatal("a slip with its wagers read as sent")
	}
	if _, err := SlipOfSent(nil, nil); err == nil {
		t.Fatal("no slip read")
	}
}
