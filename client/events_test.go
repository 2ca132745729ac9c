package client

import (
	"testing"

	pb "github.com/tablegames/ats/client/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
)

// Jackpot events from the wire: a hit becomes a typed event; a malformed one is an error, not a
// silent zero.
func TestJackpotEvents(t *testing.T) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	ev, err := convert(&pb.TableEvent{Event: &pb.TableEvent_JackpotWon{JackpotWon: &pb.JackpotWon{RoundId: "R9", TerminalId: "T02", Amount: 100001}}}, l)
	if err != nil || ev != (JackpotWon{RoundID: "R9", TerminalID: "T02", Amount: 100001}) {
		t.Fatalf("hit: %#v %v", ev, err)
	}
	ev, err = convert(&pb.TableEvent{Event: &pb.TableEvent_Jackpot{Jackpot: &pb.JackpotMeter{Amount: 123456}}}, l)
	if err != nil || ev != (JackpotMeter{Amount: 123456}) {
		t.Fatalf("meter: %#v %v", ev, err)
	}
	for _, bad := range []*pb.JackpotWon{{RoundId: "R9", TerminalId: "T02"}, {RoundId: "R9", Amount: 5}, {RoundId: "R9", TerminalId: "T02", Amount: -5}} {
		if ev, err := convert(&pb.TableEvent{Event: &pb.TableEvent_JackpotWon{JackpotWon: bad}}, l); err == nil {
			t.Errorf("%v converted to %#v", bad, ev)
		}
	}
}
