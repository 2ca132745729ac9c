package table

// Tournament play (000 §12, 001 §11, 003 §10): the table's model of a tournament, as the
// server keeps it, the dealer console prints it and the kiosk shows it.
//
// Tournament chips are not money (003 §10.1.1: "no cash value and are not redeemable"): a
// tournament player's chips are a count kept in the tournament, never in the chip account,
// never on a ticket or a meter. The terms fix everything the seeds require the terms and
// conditions to state that the table enforces: the entry fee and prize pool (003 §10.3), the
// equal starting bank (001 §11.4.3(b), 003 §10.6.2), the number of rounds (003 §10.4.2(e)),
// the minimum and maximum wager of each round (003 §10.4.2(c)(d), §10.6.14–10.6.15), the
// undisclosed wagers and pass cards each player has (003 §10.7, §10.8), and the prizes.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
)

// TournamentTableRefused is in the table's refusal of money in or a cash-out ticket while
// its tournament is played: the table is used only for tournament play (003 §10.5.2) and
// tournament chips are not money (§10.1.1). The terminal recognises it to tell the player why
// in their language.
const TournamentTableRefused = "this table is reserved for the tournament"

// TournamentStatus is where a tournament is.
type TournamentStatus int

// The statuses, in order.
const (
	TournamentNone       TournamentStatus = iota
	TournamentConfigured                  // terms recorded, no seats yet
	TournamentOpen                        // seats entered with their starting chips; no round played
	TournamentRunning                     // rounds being played
	TournamentPlayoff                     // the scheduled rounds are over; tied players play off (003 §10.10.3)
	TournamentFinished                    // results recorded
	TournamentCancelled                   // cancelled before any round: entry fees refunded (003 §10.3.4)
)

func (s TournamentStatus) String() string {
	return [...]string{"none", "configured", "open", "running", "playoff", "finished", "cancelled"}[min(max(int(s), 0), 6)]
}

// Final reports whether the tournament is over (finished or cancelled).
func (s TournamentStatus) Final() bool { return s == TournamentFinished || s == TournamentCancelled }

// Playing reports whether the table's rounds are tournament rounds (the table is used only
// for tournament play while they are: 000 §12.2.5, 003 §10.5.2).
func (s TournamentStatus) Playing() bool {
	return s == TournamentOpen || s == TournamentRunning || s == TournamentPlayoff
}

// TournamentTerms are the terms and conditions the table enforces.
type TournamentTerms struct {
	ID    string // the tournament's name in records, e.g. "SPRING-1"
	Name  string // as players read it
	Terms string // the documented terms and conditions (000 §12.4), shown and printed as given

	EntryFee   int64 // per player, cents; collected at the tournament desk, never from a chip account
	AddedPrize int64 // the operator's addition to the prize pool (003 §10.3.1), cents

	StartingChips int64   // every player's equal starting bank, tournament chips
	Rounds        int     // the scheduled rounds of play
	Minimums      []int64 // the minimum wager of round 1, 2, …; the last applies to the later rounds
	Maximum       int64   // the most a player may wager in one round (0: no maximum beyond their chips)

	SecretWagers int // undisclosed wagers each player may make in the tournament (003 §10.8)
	PassCards    int // rounds each player may pass without wagering (003 §10.7)

	// Prizes are the prize pool's shares of 1st, 2nd, … place, in percent, together exactly 100:
	// every entry fee goes to the winners (003 §10.3.2). The number of places is the number of
	// prize-getters, whose ties are played off.
	Prizes []int64

	MinPlayers, MaxPlayers int

	// OrderOfWagering (003 §10.9): a marker sits on one player's box each round; that player
	// wagers first and the others follow in seat order ("to the left" is the order the seats
	// were entered in OpenTournament, wrapping round). A wager out of turn is refused
	// (§10.9.4); a wager made in turn is final (§10.9.5). The marker starts on the first seat
	// and moves each round to the next player still playing.
	OrderOfWagering bool
}

// Limits at most the table accepts: a tournament is small.
const (
	MaxTournamentRounds  = 1000
	MaxTournamentPlayers = 64
	MaxTournamentPlaces  = 16
	maxTournamentText    = 4000
)

// Validate checks the terms are complete and consistent.
func (c TournamentTerms) Validate() error {
	switch {
	case c.ID == "" || len(c.ID) > 32:
		return errors.New("a tournament id of 1 to 32 characters is required")
	case len(c.Name) > 200 || len(c.Terms) > maxTournamentText:
		return errors.New("the name or the terms are too long")
	case strings.TrimSpace(c.Terms) == "":
		return errors.New("the terms and conditions are required: a tournament is conducted on documented terms (001 §11.2.1, §11.4; 003 §10.4.1)")
	case c.EntryFee < 0 || c.AddedPrize < 0 || c.EntryFee > roulette.MaxStake || c.AddedPrize > roulette.MaxStake:
		return errors.New("the entry fee and the added prize must be between 0 and the table's largest stake")
	case c.StartingChips <= 0 || c.StartingChips > roulette.MaxStake:
		return errors.New("the starting chips must be positive")
	case c.Rounds <= 0 || c.Rounds > MaxTournamentRounds:
		return fmt.Errorf("the number of rounds must be 1 to %d", MaxTournamentRounds)
	case len(c.Minimums) == 0 || len(c.Minimums) > c.Rounds:
		return errors.New("a minimum wager is required for round 1 (and at most one per round)")
	case c.Maximum < 0:
		return errors.New("the maximum wager must not be negative")
	case c.SecretWagers < 0 || c.SecretWagers > c.Rounds || c.PassCards < 0 || c.PassCards > c.Rounds:
		return errors.New("secret wagers and pass cards must be between 0 and the number of rounds")
	case len(c.Prizes) == 0 || len(c.Prizes) > MaxTournamentPlaces:
		return fmt.Errorf("between 1 and %d prize places are required", MaxTournamentPlaces)
	case c.MinPlayers < 0 || c.MaxPlayers < 0 || c.MaxPlayers > MaxTournamentPlayers || (c.MaxPlayers > 0 && c.MinPlayers > c.MaxPlayers):
		return fmt.Errorf("players: the minimum must not exceed the maximum (at most %d)", MaxTournamentPlayers)
	}
	for i, m := range c.Minimums {
		if m <= 0 || m > c.StartingChips {
			return fmt.Errorf("the minimum wager of round %d must be positive and within the starting chips", i+1)
		}
		if c.Maximum > 0 && m > c.Maximum {
			return fmt.Errorf("the minimum wager of round %d is above the maximum", i+1)
		}
	}
	var total int64
	for i, p := range c.Prizes {
		if p < 0 || p > 100 {
			return fmt.Errorf("prize %d: a share of 0 to 100 percent", i+1)
		}
		total += p
	}
	if total != 100 {
		return fmt.Errorf("the prize shares add up to %d percent: they must distribute the whole prize pool, 100 percent (003 §10.3.2)", total)
	}
	return nil
}

// Minimum is the minimum wager of round n (1-based; a playoff round past the schedule uses the
// last). The minimum may change from round to round only as the terms announced before the
// tournament began (003 §10.6.15).
func (c TournamentTerms) Minimum(n int) int64 {
	if len(c.Minimums) == 0 {
		return 0
	}
	return c.Minimums[min(max(n, 1), len(c.Minimums))-1]
}

// Limits are the wager limits of round n as the rules engine applies them, on the kiosk's touch
// and at the server alike: every wager in units of the minimum and at least one (003
// §10.6.14), the round's wagers together at least the minimum (§10.6.4) and at most the
// maximum (§10.6.14).
func (c TournamentTerms) Limits(n int) roulette.Limits {
	m := c.Minimum(n)
	return roulette.Limits{Default: roulette.Limit{Min: m, Unit: m}, TableMax: c.Maximum, AggregateMin: m}
}

// PrizePool is the entry fees of the players plus the operator's addition (003 §10.3.1–10.3.2).
func (c TournamentTerms) PrizePool(players int) (int64, error) {
	fees, err := money.Mul(int64(players), c.EntryFee)
	if err != nil {
		return 0, err
	}
	return money.Add(fees, c.AddedPrize)
}

// A player's state in the tournament.
const (
	PlayerPlaying      = "playing"
	PlayerEliminated   = "eliminated"   // could not wager the minimum (003 §10.6.13)
	PlayerDisqualified = "disqualified" // did not wager and had no pass card left (003 §10.6.4)
)

// TournamentStanding is one player's line in the standings.
type TournamentStanding struct {
	Terminal  string
	Rank      int // 1 = first; equal chips share a rank until played off; 0 for a disqualified player
	Chips     int64
	State     string // PlayerPlaying, PlayerEliminated, PlayerDisqualified
	InPlayoff bool   // plays the playoff now under way
	// The player's wager of the current round as the others may know it: an undisclosed wager
	// shows Secret and no amount until the round's result (003 §10.8).
	RoundStake  int64
	Secret      bool
	SecretsLeft int
	PassesLeft  int
	Prize       int64 // cents, once the tournament is finished
	Eliminated  int   // the round in which the player went out, 0 while playing
	Refund      int64 // cancelled: the entry fee owed back to this seat, cents (003 §10.3.4)
	// WageredInTurn: with an order of wagering, this round's wager (or pass) is made and may
	// no longer be removed or altered (003 §10.9.5).
	WageredInTurn bool
}

// Tournament is the tournament at the table as a terminal and the console see it.
type Tournament struct {
	Terms     TournamentTerms
	Status    TournamentStatus
	Round     int    // the round being (or next to be) played, 1-based; past Rounds in a playoff
	Played    int    // rounds settled
	RoundID   string // the table's round of the tournament round in play, if any
	PrizePool int64
	Standings []TournamentStanding // by rank
	Rounds    []TournamentRound    // the record of every round played (the console's print; not sent to terminals)
	Note      string               // why it ended early or was cancelled
	// With an order of wagering (003 §10.9): Marker is the terminal whose box has the marker
	// this round, Turn the terminal whose turn it is to wager ("" when none is: every player
	// has wagered, or no round is in its wagering period).
	Marker, Turn string
}

// Minimum is the minimum wager of the round being played.
func (t *Tournament) Minimum() int64 { return t.Terms.Minimum(t.Round) }

// Standing is a player's line, nil if the terminal is not in the tournament.
func (t *Tournament) Standing(terminal string) *TournamentStanding {
	if t == nil {
		return nil
	}
	for i := range t.Standings {
		if t.Standings[i].Terminal == terminal {
			return &t.Standings[i]
		}
	}
	return nil
}

// TournamentRound is one round played: the outcome and each player's play.
type TournamentRound struct {
	N       int
	RoundID string
	Outcome string
	Playoff bool
	Plays   []TournamentPlay
	// Invalidated is why the round was invalidated (001 §12.3–12.4, which 003 §10.2.1 applies
	// to tournament play): every wager returned, chips unchanged, and the round not counted as
	// played — the next round has the same number. "" for a round that stands.
	Invalidated string
}

// TournamentPlay is one player's play of a round.
type TournamentPlay struct {
	Terminal string
	Staked   int64
	Returned int64
	Chips    int64 // after the round
	Secret   bool
	Passed   bool   // a pass card played instead of a wager
	Wagers   string // the wagers as placed, e.g. "straight 17 x100, red x200"
	Result   string // "", or what happened to the player: eliminated, disqualified, PlayVoidTerminalLost
	Decision string // the Tournament Director's decision on this play, with who and when
}

// PlayVoidTerminalLost is the record of a player whose wagers of the round were void because
// their terminal was lost before the deadline (001 §9.7.1): not a failure to wager (003
// §10.6.4), so no pass card is used and no one is disqualified for it; the Director may grant
// the player a pass card (GrantPassCard).
const PlayVoidTerminalLost = "void: terminal lost"

// TournamentChanged is the tournament's new state, sent to every terminal.
type TournamentChanged struct{ Tournament *Tournament }

func (TournamentChanged) isEvent() {}
