package wire

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// FuzzEventOf feeds arbitrary bytes to the terminal's reading of a table event: it must never
// panic, and what it passes on keeps the model's promises — a carried slip (004 §3.6(b)) names
// its round and a version the terminal's next change can be newer than, and a jackpot hit is
// never both confirmed and void (001 §9.10).
func FuzzEventOf(f *testing.F) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, ev := range []*pb.TableEvent{
		{Event: &pb.TableEvent_SlipCarried{SlipCarried: &pb.SlipCarried{Slip: &pb.Slip{RoundId: "R1", Version: 1, Total: 500,
			Wagers:  []*pb.Wager{{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{"17"}, Amount: 500}},
			Results: []*pb.WagerResult{{Accepted: 500}}}}}},
		{Event: &pb.TableEvent_WagerRefused{WagerRefused: &pb.WagerRefused{Slip: &pb.Slip{RoundId: "R1", Version: 2},
			Refused: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{"17"}, Amount: 500}}, Reason: "late", By: "supervisor:s1"}}},
		{Event: &pb.TableEvent_JackpotWon{JackpotWon: &pb.JackpotWon{RoundId: "R1", TerminalId: "T1", Amount: 100001, Void: true}}},
		{Event: &pb.TableEvent_Snapshot{Snapshot: &pb.Snapshot{Config: &pb.TableConfig{Wheel: pb.Wheel_WHEEL_SINGLE_ZERO, DealerCashOnly: true}}}},
	} {
		b, err := proto.Marshal(ev)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var ev pb.TableEvent
		if proto.Unmarshal(b, &ev) != nil {
			return
		}
		got, err := EventOf(&ev, l)
		if err != nil {
			return
		}
		switch e := got.(type) {
		case table.SlipCarried:
			if e.Slip.Version == 0 || e.Slip.RoundID == "" {
				t.Fatalf("carried slip without its round or version: %+v", e.Slip)
			}
		case table.WagerRefused:
			if e.Slip.Version == 0 || e.Slip.RoundID == "" {
				t.Fatalf("refusal without the slip's round or version: %+v", e.Slip)
			}
		case table.JackpotWon:
			if e.Confirmed && e.Void {
				t.Fatalf("a hit both confirmed and void: %+v", e)
			}
		}
	})
}
