package wire

import (
	"testing"

	"github.com/tablegames/ats/app/table"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
)

// Jackpot events from the wire: a hit becomes a typed event; a malformed one is an error, not a
// silent zero.
func TestJackpotEvents(t *testing.T) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	ev, err := EventOf(&pb.TableEvent{Event: &pb.TableEvent_JackpotWon{JackpotWon: &pb.JackpotWon{RoundId: "R9", TerminalId: "T02", Amount: 100001}}}, l)
	if err != nil || ev != (table.JackpotWon{RoundID: "R9", TerminalID: "T02", Amount: 100001}) {
		t.Fatalf("hit: %#v %v", ev, err)
	}
	ev, err = EventOf(&pb.TableEvent{Event: &pb.TableEvent_Jackpot{Jackpot: &pb.JackpotMeter{Amount: 123456}}}, l)
	if err != nil || ev != (table.JackpotMeter{Amount: 123456}) {
		t.Fatalf("meter: %#v %v", ev, err)
	}
	for _, bad := range []*pb.JackpotWon{{RoundId: "R9", TerminalId: "T02"}, {RoundId: "R9", Amount: 5}, {RoundId: "R9", TerminalId: "T02", Amount: -5}} {
		if ev, err := EventOf(&pb.TableEvent{Event: &pb.TableEvent_JackpotWon{JackpotWon: bad}}, l); err == nil {
			t.Errorf("%v converted to %#v", bad, ev)
		}
	}
}

// The dealer closes in a snapshot become typed closes, newest first as sent; one without an id
// (it could not be recorded once) or with a negative amount is an error naming it.
func TestSnapshotDealerCloses(t *testing.T) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	snap := func(cs ...*pb.AccountClosed) *pb.TableEvent {
		return &pb.TableEvent{Event: &pb.TableEvent_Snapshot{Snapshot: &pb.Snapshot{
			Config: &pb.TableConfig{Wheel: pb.Wheel_WHEEL_SINGLE_ZERO}, DealerCloses: cs}}}
	}
	ev, err := EventOf(snap(&pb.AccountClosed{CloseId: "C2", Amount: 1500, Reason: "directed-to-leave", AtUnixNanos: 2e18},
		&pb.AccountClosed{CloseId: "C1", Amount: 0, Reason: "dealer"}), l)
	if err != nil {
		t.Fatal(err)
	}
	cs := ev.(table.Snapshot).DealerCloses
	if len(cs) != 2 || cs[0].ID != "C2" || cs[0].Amount != 1500 || cs[0].Reason != "directed-to-leave" || cs[0].At.UnixNano() != 2e18 ||
		cs[1].ID != "C1" || !cs[1].At.IsZero() {
		t.Fatalf("dealer closes: %+v", cs)
	}
	for _, bad := range []*pb.AccountClosed{{Amount: 100}, {CloseId: "C3", Amount: -1}} {
		if ev, err := EventOf(snap(bad), l); err == nil {
			t.Errorf("%v converted to %#v", bad, ev)
		}
	}
}
