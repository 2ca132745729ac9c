package wire

import (
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

func sampleTournament() *table.Tournament {
	return &table.Tournament{
		Terms: table.TournamentTerms{ID: "SPRING-1", Name: "Spring Cup", Terms: "T&C", EntryFee: 5000, AddedPrize: 5000,
			StartingChips: 1000, Rounds: 3, Minimums: []int64{100, 100, 200}, Maximum: 500, SecretWagers: 1, PassCards: 1,
			Prizes: []int64{60, 30, 10}, MinPlayers: 2, MaxPlayers: 8, OrderOfWagering: true},
		Status: table.TournamentPlayoff, Round: 4, Played: 3, RoundID: "R000004", PrizePool: 30000, Note: "n",
		Marker: "T2", Turn: "T1",
		Standings: []table.TournamentStanding{
			{Terminal: "T1", Rank: 1, Chips: 3800, State: table.PlayerPlaying, SecretsLeft: 1, PassesLeft: 1, WageredInTurn: true},
			{Terminal: "T2", Rank: 2, Chips: 1200, State: table.PlayerPlaying, InPlayoff: true, RoundStake: 200, Secret: true, Prize: 9000},
			{Terminal: "T5", Rank: 4, Chips: 100, State: table.PlayerEliminated, Eliminated: 2},
			{Terminal: "T4", Chips: 1000, State: table.PlayerDisqualified, Eliminated: 2, Refund: 5000},
		},
		Rounds: []table.TournamentRound{{N: 1, RoundID: "R000001", Outcome: "17", Plays: []table.TournamentPlay{
			{Terminal: "T1", Staked: 300, Chips: 700, Wagers: "red x300"},
			{Terminal: "T2", Staked: 300, Returned: 600, Chips: 1300, Secret: true, Wagers: "black x300"},
			{Terminal: "T4", Chips: 1000, Passed: true, Result: table.PlayVoidTerminalLost, Decision: "pass card granted"},
			{Terminal: "T5", Staked: 400, Chips: 100, Result: "eliminated"}}},
			{N: 2, RoundID: "R000003", Invalidated: "brawl"},
			{N: 4, RoundID: "R000004", Outcome: "7", Playoff: true}},
	}
}

// A tournament makes the round trip model → wire bytes → model unchanged, in a snapshot, as
// an event and alone.
func TestTournamentRoundTrip(t *testing.T) {
	tr := sampleTournament()
	b, err := proto.Marshal(TournamentPB(tr))
	if err != nil {
		t.Fatal(err)
	}
	var m pb.Tournament
	if err := proto.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	got, err := TournamentOf(&m)
	if err != nil || !reflect.DeepEqual(got, tr) {
		t.Fatalf("round trip:\n got %+v %v\nwant %+v", got, err, tr)
	}
	ev, err := EventPB(table.TournamentChanged{Tournament: tr})
	if err != nil {
		t.Fatal(err)
	}
	back, err := EventOf(ev, roulette.Layout{Wheel: roulette.SingleZero})
	if err != nil || !reflect.DeepEqual(back, table.TournamentChanged{Tournament: tr}) {
		t.Fatalf("event round trip: %+v %v", back, err)
	}
	if none, err := TournamentOf(nil); none != nil || err != nil || TournamentPB(nil) != nil {
		t.Fatal("no tournament is nil both ways")
	}
	for _, bad := range []*pb.Tournament{{Status: 99}, {Round: -1}, {Standings: []*pb.TournamentStanding{{State: "winning"}}}} {
		if _, err := TournamentOf(bad); err == nil {
			t.Errorf("%v read", bad)
		}
	}
}

// Whatever bytes come as a tournament, reading them never panics, and what reads writes back
// to the same model.
func FuzzTournamentOf(f *testing.F) {
	b, _ := proto.Marshal(TournamentPB(sampleTournament()))
	f.Add(b)
	f.Add([]byte{0x10, 0x63})
	f.Fuzz(func(t *testing.T, data []byte) {
		var m pb.Tournament
		if proto.Unmarshal(data, &m) != nil {
			return
		}
		tr, err := TournamentOf(&m)
		if err != nil || tr == nil {
			return
		}
		again, err := TournamentOf(TournamentPB(tr))
		if err != nil || !reflect.DeepEqual(again, tr) {
			t.Fatalf("not stable: %+v → %+v (%v)", tr, again, err)
		}
	})
}
