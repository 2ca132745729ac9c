package wire

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// A display's state makes the round trip model → wire bytes → model unchanged, on a double-zero
// wheel with 00 the latest, a jackpot won and a closure announced.
func TestDisplayRoundTrip(t *testing.T) {
	at := func(s int64) time.Time { return time.Unix(1_800_000_000+s, 5) }
	var h []table.Outcome
	for i, n := range []roulette.Number{roulette.DoubleZeroNumber, 17, 0, 17, 32, 5, 17, 9, 36, 1, 22} {
		h = append(h, table.Outcome{RoundID: "R" + string(rune('A'+i)), Number: n, At: at(int64(-60 * i)), Corrected: i == 1})
	}
	d := table.DisplayOf(table.Display{TableID: "T1", Venue: "Demo Casino", Currency: "AUD", Wheel: roulette.DoubleZero,
		Phase: table.PhaseResult, ClosingAt: at(900), Jackpot: true, JackpotMeter: 1234567, Promotion: "Happy hour 5–7 pm",
		Limits:     roulette.Limits{Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100}, TableMax: 200000, AggregateMin: 500},
		JackpotWin: &table.JackpotWin{RoundID: "RA", Seat: "T07", Amount: 1000050, Until: at(60)}, At: at(1)}, h)
	if len(d.Hot) == 0 || len(d.Cold) == 0 || d.Splits.Sample != 11 {
		t.Fatalf("statistics not counted: %+v", d)
	}
	b, err := proto.Marshal(DisplayPB(d))
	if err != nil {
		t.Fatal(err)
	}
	var back pb.DisplayState
	if err := proto.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got, err := DisplayOf(&back)
	if err != nil {
		t.Fatal(err)
	}
	d.Limits.PerKind, got.Limits.PerKind = nil, nil // none set: LimitsOf reads an empty map
	if !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, d)
	}
}

// A display refuses a state it would draw wrongly, with a reason, rather than drawing it.
func TestDisplayOfRefusesWhatItCannotShow(t *testing.T) {
	good := func() *pb.DisplayState {
		return DisplayPB(table.DisplayOf(table.Display{Wheel: roulette.SingleZero, Phase: table.PhaseIdle,
			Limits: roulette.Limits{Default: roulette.Limit{Min: 100, Max: 500, Unit: 100}}}, nil))
	}
	if _, err := DisplayOf(good()); err != nil {
		t.Fatalf("a good state refused: %v", err)
	}
	for _, c := range []struct {
		name, want string
		bad        func(*pb.DisplayState)
	}{
		{"no wheel", "unknown wheel", func(s *pb.DisplayState) { s.Wheel = pb.Wheel_WHEEL_UNSPECIFIED }},
		{"no phase", "unknown phase", func(s *pb.DisplayState) { s.Phase = pb.Phase_PHASE_UNSPECIFIED }},
		{"00 on a single-zero wheel", "not on a single-zero wheel", func(s *pb.DisplayState) {
			s.History = []*pb.Outcome{{Number: "00"}}
		}},
		{"not a number", "outcome", func(s *pb.DisplayState) { s.History = []*pb.Outcome{{Number: "37"}} }},
		{"21 outcomes", "at most 20", func(s *pb.DisplayState) {
			for range 21 {
				s.History = append(s.History, &pb.Outcome{Number: "1"})
			}
		}},
		{"a negative count", "counted -1", func(s *pb.DisplayState) { s.Hot = []*pb.DisplayNumberCount{{Number: "1", Count: -1}} }},
		{"two dozens", "2 dozens", func(s *pb.DisplayState) { s.Splits.Dozens = []int32{1, 2} }},
		{"a negative meter", "jackpot meter", func(s *pb.DisplayState) { s.JackpotMeter = -1 }},
		{"no limits", "limits", func(s *pb.DisplayState) { s.Limits = nil }},
		{"nothing won", "jackpot won", func(s *pb.DisplayState) { s.JackpotWin = &pb.DisplayJackpotWin{Seat: "T1"} }},
	} {
		s := good()
		c.bad(s)
		if _, err := DisplayOf(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
}
