package wire

// Tournament play (issue 15) on the wire, both directions: the terms the Director configures,
// the tournament the console prints and the terminals show.

import (
	"fmt"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// TournamentTermsPB writes a tournament's terms.
func TournamentTermsPB(c table.TournamentTerms) *pb.TournamentTerms {
	return &pb.TournamentTerms{Id: c.ID, Name: c.Name, Terms: c.Terms, EntryFee: c.EntryFee, AddedPrize: c.AddedPrize,
		StartingChips: c.StartingChips, Rounds: int32(c.Rounds), Minimums: append([]int64(nil), c.Minimums...), Maximum: c.Maximum,
		SecretWagers: int32(c.SecretWagers), PassCards: int32(c.PassCards), Prizes: append([]int64(nil), c.Prizes...),
		MinPlayers: int32(c.MinPlayers), MaxPlayers: int32(c.MaxPlayers), OrderOfWagering: c.OrderOfWagering}
}

// TournamentTermsOf reads a tournament's terms; they are checked (Validate) by whoever acts
// on them.
func TournamentTermsOf(c *pb.TournamentTerms) table.TournamentTerms {
	if c == nil {
		return table.TournamentTerms{}
	}
	return table.TournamentTerms{ID: c.Id, Name: c.Name, Terms: c.Terms, EntryFee: c.EntryFee, AddedPrize: c.AddedPrize,
		StartingChips: c.StartingChips, Rounds: int(c.Rounds), Minimums: append([]int64(nil), c.Minimums...), Maximum: c.Maximum,
		SecretWagers: int(c.SecretWagers), PassCards: int(c.PassCards), Prizes: append([]int64(nil), c.Prizes...),
		MinPlayers: int(c.MinPlayers), MaxPlayers: int(c.MaxPlayers), OrderOfWagering: c.OrderOfWagering}
}

// TournamentPB writes a tournament; nil for none.
func TournamentPB(t *table.Tournament) *pb.Tournament {
	if t == nil {
		return nil
	}
	out := &pb.Tournament{Terms: TournamentTermsPB(t.Terms), Status: pb.TournamentStatus(t.Status), Round: int32(t.Round),
		Played: int32(t.Played), RoundId: t.RoundID, PrizePool: t.PrizePool, Note: t.Note, Marker: t.Marker, Turn: t.Turn}
	for _, s := range t.Standings {
		out.Standings = append(out.Standings, &pb.TournamentStanding{TerminalId: s.Terminal, Rank: int32(s.Rank), Chips: s.Chips,
			State: s.State, InPlayoff: s.InPlayoff, RoundStake: s.RoundStake, Secret: s.Secret, SecretsLeft: int32(s.SecretsLeft),
			PassesLeft: int32(s.PassesLeft), Prize: s.Prize, EliminatedRound: int32(s.Eliminated), WageredInTurn: s.WageredInTurn, Refund: s.Refund})
	}
	for _, r := range t.Rounds {
		pr := &pb.TournamentRound{N: int32(r.N), RoundId: r.RoundID, Outcome: r.Outcome, Playoff: r.Playoff, Invalidated: r.Invalidated}
		for _, p := range r.Plays {
			pr.Plays = append(pr.Plays, &pb.TournamentPlay{TerminalId: p.Terminal, Staked: p.Staked, Returned: p.Returned,
				Chips: p.Chips, Secret: p.Secret, Passed: p.Passed, Wagers: p.Wagers, Result: p.Result, Decision: p.Decision})
		}
		out.Rounds = append(out.Rounds, pr)
	}
	return out
}

// TournamentOf reads a tournament; nil for none. A status the model does not know, or a
// negative count, is an error: the screen shows only what it can trust.
func TournamentOf(t *pb.Tournament) (*table.Tournament, error) {
	if t == nil {
		return nil, nil
	}
	st := table.TournamentStatus(t.Status)
	if st < table.TournamentNone || st > table.TournamentCancelled {
		return nil, fmt.Errorf("tournament: unknown status %d", t.Status)
	}
	if t.Round < 0 || t.Played < 0 || t.PrizePool < 0 {
		return nil, fmt.Errorf("tournament: round %d, played %d, prize pool %d: must not be negative", t.Round, t.Played, t.PrizePool)
	}
	out := &table.Tournament{Terms: TournamentTermsOf(t.Terms), Status: st, Round: int(t.Round), Played: int(t.Played),
		RoundID: t.RoundId, PrizePool: t.PrizePool, Note: t.Note, Marker: t.Marker, Turn: t.Turn}
	for _, s := range t.Standings {
		switch s.GetState() {
		case table.PlayerPlaying, table.PlayerEliminated, table.PlayerDisqualified:
		default:
			return nil, fmt.Errorf("tournament: standing of %q: unknown state %q", s.GetTerminalId(), s.GetState())
		}
		out.Standings = append(out.Standings, table.TournamentStanding{Terminal: s.TerminalId, Rank: int(s.Rank), Chips: s.Chips,
			State: s.State, InPlayoff: s.InPlayoff, RoundStake: s.RoundStake, Secret: s.Secret, SecretsLeft: int(s.SecretsLeft),
			PassesLeft: int(s.PassesLeft), Prize: s.Prize, Eliminated: int(s.EliminatedRound), WageredInTurn: s.WageredInTurn, Refund: s.Refund})
	}
	for _, r := range t.Rounds {
		tr := table.TournamentRound{N: int(r.N), RoundID: r.RoundId, Outcome: r.Outcome, Playoff: r.Playoff, Invalidated: r.Invalidated}
		for _, p := range r.Plays {
			tr.Plays = append(tr.Plays, table.TournamentPlay{Terminal: p.TerminalId, Staked: p.Staked, Returned: p.Returned,
				Chips: p.Chips, Secret: p.Secret, Passed: p.Passed, Wagers: p.Wagers, Result: p.Result, Decision: p.Decision})
		}
		out.Rounds = append(out.Rounds, tr)
	}
	return out, nil
}
