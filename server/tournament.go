package server

// Tournament play (000 §12, 001 §11, 003 §10).
//
// A tournament is configured at the table with its terms (table.TournamentTerms) by the
// Tournament Director (a supervisor certificate), opened on the seats (terminals) that entered,
// each with the same starting bank of tournament chips, and then played over the table's own
// rounds: while it is open every round the dealer starts is a tournament round, and the table
// takes wagers from no one else (000 §12.2.5, 003 §10.5.2). A tournament player's slip is
// priced by the same rules engine as a cash slip (Limits.NewPricer, app/roulette) against their
// tournament chips and the round's tournament limits (every wager in units of the round's
// minimum, together at least the minimum and at most the maximum: 003 §10.6.14), and settled
// by the same Round.Returned. Tournament chips are kept in the tournament, never in a chip
// account: a tournament round moves no money, writes no settlement, no slip row and no meter,
// so the money game's books cannot tell a tournament was played (and a tournament chip cannot
// be cashed out: 003 §10.1.1).
//
// After each round: a player who did not wager plays a pass card if they have one left, or is
// disqualified (003 §10.6.4, §10.7); a player whose chips no longer cover the next round's
// minimum is eliminated (§10.6.13). After the last scheduled round, players tied on equal chips
// (other than zero) within the prize places play off, round after round, until an order is
// determined (§10.10.3); the rest keep their places. Eliminated players are placed by the
// round they went out in, then their residual chips, then the larger last wager (the smaller
// is deemed out first: §10.10.4); players still equal share the place and its prizes.
//
// Undisclosed wagers (003 §10.8): a player with one left may mark their slip secret; the other
// terminals see that the player has an undisclosed wager and not its amount until the round's
// result, when it is disclosed in the record. The Director's console sees it all along (the
// supervisor records it: §10.8.2.1).
//
// Order of wagering (003 §10.9), when the terms provide it: a marker, the marker's player
// wagering first and the others in seat order, a slip out of turn refused and one made in turn
// final; see "the order of wagering" below.
//
// The whole tournament is one sealed ledger row (ledger/tournament.go), written in the same
// transaction as the round it follows, with an audit event for every step; the results stay
// in the ledger for the console's print (`dealer tournament results`).

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
	"github.com/tablegames/ats/server/ledger"
)

// tourPlayer is one player's state, as stored.
type tourPlayer struct {
	Terminal  string `json:"terminal"`
	Chips     int64  `json:"chips"`
	State     string `json:"state"`
	Secrets   int    `json:"secrets"`
	Passes    int    `json:"passes"`
	Out       int    `json:"out,omitempty"`        // the round the player went out in
	OutStake  int64  `json:"out_stake,omitempty"`  // their wager of that round (003 §10.10.4)
	Final     int64  `json:"final,omitempty"`      // chips at the end of the scheduled rounds
	InPlayoff bool   `json:"in_playoff,omitempty"` // plays the playoff under way
	Prize     int64  `json:"prize,omitempty"`
	Rank      int    `json:"rank,omitempty"`
}

// tourSlip is a tournament slip made durable at the close of its round's wagering period, so a
// restart before the outcome settles it (001 §9.8.2, as for a cash slip).
type tourSlip struct {
	Terminal string          `json:"terminal"`
	Version  uint64          `json:"version"`
	Wagers   json.RawMessage `json:"wagers"`
	Total    int64           `json:"total"`
	Secret   bool            `json:"secret,omitempty"`
}

// tournament is the table's tournament: stored as JSON in its ledger row.
type tournament struct {
	Terms   table.TournamentTerms   `json:"terms"`
	Status  table.TournamentStatus  `json:"status"`
	Played  int                     `json:"played"`
	Players []*tourPlayer           `json:"players"` // in seat (entry) order
	Rounds  []table.TournamentRound `json:"rounds"`
	RoundID string                  `json:"round_id,omitempty"` // the table's round of the tournament round under way
	Closed  []tourSlip              `json:"closed,omitempty"`   // that round's slips, once its wagering closed
	Note    string                  `json:"note,omitempty"`
	Created time.Time               `json:"created"`
	// Marker is the terminal whose box has the marker this round, with an order of wagering
	// (003 §10.9); "" without one.
	Marker string `json:"marker,omitempty"`
	// Voided is the players whose wagers of the round under way were void because their
	// terminal was lost before the deadline (001 §9.7.1): recorded as such, never as a pass.
	Voided []string `json:"voided,omitempty"`

	// The slips of the round under way, as acknowledged (in memory until the close, as cash
	// slips are: slips.go).
	slips map[string]*slip
}

// clone is a deep copy, changed by a settlement and installed only once it has committed.
func (tr *tournament) clone() *tournament {
	c := *tr
	c.Players = make([]*tourPlayer, len(tr.Players))
	for i, p := range tr.Players {
		cp := *p
		c.Players[i] = &cp
	}
	c.Rounds = append([]table.TournamentRound(nil), tr.Rounds...)
	c.Closed = append([]tourSlip(nil), tr.Closed...)
	c.Voided = append([]string(nil), tr.Voided...)
	c.slips = make(map[string]*slip, len(tr.slips))
	for k, v := range tr.slips {
		c.slips[k] = v
	}
	return &c
}

func (tr *tournament) player(terminal string) *tourPlayer {
	for _, p := range tr.Players {
		if p.Terminal == terminal {
			return p
		}
	}
	return nil
}

// round is the number of the round being (or next to be) played.
func (tr *tournament) round() int { return tr.Played + 1 }

// playsRound reports whether a player takes part in the round under way.
func (tr *tournament) playsRound(p *tourPlayer) bool {
	if p.State != table.PlayerPlaying {
		return false
	}
	return tr.Status != table.TournamentPlayoff || p.InPlayoff
}

// ---- the order of wagering (003 §10.9) ---------------------------------------------------------
//
// With terms.OrderOfWagering a marker sits on one player's box each round: that player wagers
// first, then the others in seat order ("to the left" is the order the seats were entered,
// wrapping round). A player's turn ends when the table acknowledges their slip: the kiosk
// holds the player's chips until they end their turn, then sends the slip once. An empty slip
// is a pass, taken only from a player with a pass card left (003 §10.7); a slip below the
// round's minimum is refused, so a turn never ends in a wager that would not count. A slip from
// a player whose turn it is not is refused (§10.9.4); a slip from a player who has wagered in
// turn is refused too — the wager may not be removed or altered (§10.9.5).
//
// A player whose turn it is and who never wagers before the period ends has failed to wager
// (003 §10.6.4): they play a pass card if they have one left, else they are disqualified, as
// without an order of wagering. The players after them, whom the turn never reached, did not
// fail to wager — they were not allowed to — so their round counts as passed without using a
// pass card and with no penalty (recorded "not reached"). A player whose terminal is lost
// before the deadline has their wager voided (001 §9.7.1), and the turn returns to them.
//
// The marker starts on the first seat and moves after each round to the next player, to the
// left, who plays the next round (in a playoff, the next tied player).

// resultNotReached is the record of a player the turn never reached (above).
const resultNotReached = "not reached"

// order is the players who play the round under way, in the order of wagering: the marker's
// player first, then to the left (seat order, wrapping round).
func (tr *tournament) order() []*tourPlayer {
	start := 0
	for i, p := range tr.Players {
		if p.Terminal == tr.Marker {
			start = i
		}
	}
	var out []*tourPlayer
	for k := range tr.Players {
		if p := tr.Players[(start+k)%len(tr.Players)]; tr.playsRound(p) {
			out = append(out, p)
		}
	}
	return out
}

// turn is the terminal whose turn it is to wager, given the round's acknowledged slips; ""
// without an order of wagering or once every player has wagered.
func (tr *tournament) turn(slips map[string]*slip) string {
	if !tr.Terms.OrderOfWagering {
		return ""
	}
	for _, p := range tr.order() {
		if slips[p.Terminal] == nil {
			return p.Terminal
		}
	}
	return ""
}

// notReached is the players the turn never reached in a round whose slips are slips: those
// after the turn's holder in the order (003 §10.6.4 does not disqualify them).
func (tr *tournament) notReached(slips map[string]*slip) map[string]bool {
	out := map[string]bool{}
	holder := tr.turn(slips)
	if holder == "" {
		return out
	}
	after := false
	for _, p := range tr.order() {
		if after && slips[p.Terminal] == nil {
			out[p.Terminal] = true
		}
		after = after || p.Terminal == holder
	}
	return out
}

// moveMarker moves the marker to the next player to the left who plays the round to come.
func (tr *tournament) moveMarker() {
	if !tr.Terms.OrderOfWagering || len(tr.Players) == 0 {
		return
	}
	from := -1
	for i, p := range tr.Players {
		if p.Terminal == tr.Marker {
			from = i
		}
	}
	for k := 1; k <= len(tr.Players); k++ {
		if p := tr.Players[(from+k+len(tr.Players))%len(tr.Players)]; tr.playsRound(p) {
			tr.Marker = p.Terminal
			return
		}
	}
}

// turnRefusal is why terminal may not send a slip (of n wagers) now under the order of
// wagering, nil if it may.
func (tr *tournament) turnRefusal(terminal string, n int) error {
	if !tr.Terms.OrderOfWagering {
		return nil
	}
	if tr.slips[terminal] != nil {
		return failed("your wager of this round was made in turn: it may not be removed or altered (003 §10.9.5)")
	}
	if turn := tr.turn(tr.slips); turn != terminal {
		return failed("wait your turn: %s wagers now (order of wagering, 003 §10.9.4)", turn)
	}
	if pl := tr.player(terminal); n == 0 && (pl == nil || pl.Passes <= 0) {
		return failed("wager at least the minimum of %d: you have no pass card left", tr.Terms.Minimum(tr.round()))
	}
	return nil
}

// ---- loading and storing ----------------------------------------------------------------------

// loadTournament resumes the latest tournament if it is not over; its closed round's slips
// come back for the settlement if the round is still waiting for its outcome.
func (t *Table) loadTournament(ctx context.Context) error {
	rec, ok, err := t.led.LatestTournament(ctx)
	if err != nil || !ok {
		return err
	}
	var tr tournament
	if err := json.Unmarshal(rec.State, &tr); err != nil {
		return fmt.Errorf("server: tournament %s: %w", rec.ID, err)
	}
	if tr.Status.Final() {
		return nil
	}
	tr.slips = map[string]*slip{}
	if t.cur != nil && t.cur.id == tr.RoundID && t.cur.phase == table.PhaseNoMoreBets {
		for _, s := range tr.Closed {
			sl, err := t.decodeSlip(ledger.Slip{Round: tr.RoundID, Terminal: s.Terminal, Version: s.Version, Wagers: s.Wagers, Total: s.Total})
			if err != nil {
				return fmt.Errorf("server: tournament %s: %w", rec.ID, err)
			}
			sl.secret = s.Secret
			tr.slips[s.Terminal] = sl
		}
	}
	t.tour = &tr
	return nil
}

// putTournament writes a tournament's row in tx.
func putTournament(tx *ledger.Tx, tr *tournament, now time.Time) error {
	body, err := json.Marshal(tr)
	if err != nil {
		return err
	}
	return tx.PutTournament(ledger.TournamentRecord{ID: tr.Terms.ID, Status: tr.Status.String(), State: body,
		Created: tr.Created, Updated: now})
}

// ---- the Director's actions -------------------------------------------------------------------

// ConfigureTournament records a tournament's terms (000 §12.2.1, §12.4; 003 §10.4). No other
// tournament may be under way, and an id is used once.
func (t *Table) ConfigureTournament(actor string, terms table.TournamentTerms) (*table.Tournament, error) {
	if err := terms.Validate(); err != nil {
		return nil, invalid("tournament terms: %v", err)
	}
	terms.Minimums = append([]int64(nil), terms.Minimums...)
	terms.Prizes = append([]int64(nil), terms.Prizes...)
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	if t.tour != nil && !t.tour.Status.Final() {
		return nil, failed("tournament %s is %s: close it first", t.tour.Terms.ID, t.tour.Status)
	}
	if _, ok, err := t.led.Tournament(context.Background(), terms.ID); err != nil {
		return nil, ledgerErr(err)
	} else if ok {
		return nil, failed("a tournament %s is already on record: give the new one another id", terms.ID)
	}
	now := t.now()
	tr := &tournament{Terms: terms, Status: table.TournamentConfigured, Created: now, slips: map[string]*slip{}}
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		if err := putTournament(tx, tr, now); err != nil {
			return err
		}
		return tx.Event("tournament-configured", "", "", 0, fmt.Sprintf("%s: %d rounds, %d starting chips, minimums %v, maximum %d, entry %d, prizes %v%%",
			terms.ID, terms.Rounds, terms.StartingChips, terms.Minimums, terms.Maximum, terms.EntryFee, terms.Prizes))
	})
	if err != nil {
		return nil, ledgerErr(err)
	}
	t.tour = tr
	t.emitTournament(now)
	return t.tournamentView(true), nil
}

// OpenTournament seats the entered players on their terminals, each with the same starting
// bank (001 §11.4.3(b), 003 §10.6.2). From now on the table's rounds are tournament rounds.
func (t *Table) OpenTournament(actor string, seats []string) (*table.Tournament, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	tr := t.tour
	if tr == nil || tr.Status != table.TournamentConfigured {
		return nil, failed("no configured tournament to open")
	}
	if ph := t.phase(); ph == table.PhaseWagering || ph == table.PhaseNoMoreBets {
		return nil, failed("round %s is in play: open the tournament between rounds", t.cur.id)
	}
	seen := map[string]bool{}
	for _, s := range seats {
		if IsGuest(s) {
			// A tournament is played at Player Displays (000 §12): its undisclosed wagers and
			// standings are a screen's; a guest has none (guest.go).
			return nil, invalid("%s is a guest account: a tournament seats terminals, not guests", s)
		}
		if err := t.knownTerminal(s); err != nil {
			return nil, err
		}
		if seen[s] {
			return nil, invalid("seat %s entered twice", s)
		}
		seen[s] = true
	}
	n := len(seats)
	if n == 0 || (tr.Terms.MaxPlayers > 0 && n > tr.Terms.MaxPlayers) || n < tr.Terms.MinPlayers || n > table.MaxTournamentPlayers {
		return nil, failed("%d players entered: the terms allow %d to %d", n, tr.Terms.MinPlayers, tr.Terms.MaxPlayers)
	}
	if _, err := tr.Terms.PrizePool(n); err != nil {
		return nil, invalid("prize pool: %v", err)
	}
	next := tr.clone()
	next.Status = table.TournamentOpen
	for _, s := range seats {
		next.Players = append(next.Players, &tourPlayer{Terminal: s, Chips: tr.Terms.StartingChips, State: table.PlayerPlaying,
			Secrets: tr.Terms.SecretWagers, Passes: tr.Terms.PassCards})
	}
	if tr.Terms.OrderOfWagering {
		next.Marker = seats[0] // the first seat entered wagers first in round 1 (003 §10.9.3)
	}
	now := t.now()
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		if err := putTournament(tx, next, now); err != nil {
			return err
		}
		return tx.Event("tournament-opened", "", "", 0, fmt.Sprintf("%s: seats %s, %d tournament chips each", tr.Terms.ID, strings.Join(seats, ","), tr.Terms.StartingChips))
	})
	if err != nil {
		return nil, ledgerErr(err)
	}
	t.tour = next
	t.emitTournament(now)
	return t.tournamentView(true), nil
}

// CloseTournament ends the tournament at the Director's word: before any round it is cancelled
// (entry fees refunded, 003 §10.3.4); after, it concludes with the standings as they are
// (000 §12.4.8(d), 003 §10.5.5). Concluding early is allowed only "if the tournament player or
// players to progress … have been determined" (§10.5.5.1): players tied on equal chips inside
// the prize places are not, so the close is refused, naming them — play goes on, and a tie
// left at the end of the schedule is played off (§10.10.3). Players equal outside the prize
// places, or out on equal residual chips, still share their place. A round in play must
// finish first.
func (t *Table) CloseTournament(actor, reason string) (*table.Tournament, error) {
	if len(reason) > 500 {
		return nil, invalid("the reason is too long")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	tr := t.tour
	if tr == nil || tr.Status.Final() {
		return nil, failed("no tournament under way")
	}
	if t.cur != nil && t.cur.id == tr.RoundID && (t.cur.phase == table.PhaseWagering || t.cur.phase == table.PhaseNoMoreBets) {
		return nil, failed("tournament round %s is in play: finish it first", t.cur.id)
	}
	next := tr.clone()
	next.Note = reason
	kind := "tournament-finished"
	if tr.Played == 0 {
		next.Status, kind = table.TournamentCancelled, "tournament-cancelled"
		if next.Note == "" {
			next.Note = "cancelled before play: entry fees refunded"
		}
	} else {
		if tied := next.tiedForPrizes(); len(tied) > 0 {
			return nil, failed("tournament %s cannot be concluded now: %s tied inside the prize places, so the players who progress are not determined (003 §10.5.5.1); play on — a tie at the end of the schedule is played off (§10.10.3)",
				tr.Terms.ID, next.tiesText(tied))
		}
		if err := next.finish(); err != nil {
			return nil, invalid("prizes: %v", err)
		}
	}
	now := t.now()
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		if err := putTournament(tx, next, now); err != nil {
			return err
		}
		return tx.Event(kind, "", "", 0, tr.Terms.ID+": "+next.resultLine())
	})
	if err != nil {
		return nil, ledgerErr(err)
	}
	t.tour = next
	t.emitTournament(now)
	return t.tournamentView(true), nil
}

// Tournament is the tournament with id ("" the latest), as the console prints it: every
// round's record and every wager, undisclosed ones included.
func (t *Table) Tournament(id string) (*table.Tournament, error) {
	t.mu.Lock()
	if t.tour != nil && (id == "" || id == t.tour.Terms.ID) {
		defer t.mu.Unlock()
		return t.tournamentView(true), nil
	}
	t.mu.Unlock()
	var rec ledger.TournamentRecord
	var ok bool
	var err error
	if id == "" {
		rec, ok, err = t.led.LatestTournament(context.Background())
	} else {
		rec, ok, err = t.led.Tournament(context.Background(), id)
	}
	if err != nil {
		return nil, ledgerErr(err)
	}
	if !ok {
		return nil, notFound("no tournament %q on record", id)
	}
	var tr tournament
	if err := json.Unmarshal(rec.State, &tr); err != nil {
		return nil, ledgerErr(fmt.Errorf("tournament %s: %w", rec.ID, err))
	}
	return tr.view(true, nil), nil
}

// tournamentMoneyRefusal refuses money at the table while its tournament is played: the table
// is used exclusively for tournament play (001 §11.2.5, 003 §10.5.2), a tournament player may
// not add to their buy-in (§10.6.5), and tournament chips are not money (§10.1.1), so no note,
// ticket or dealer buy-in is taken and no cash-out ticket is printed. It is checked where money
// would first move — a note reported in escrow (handed back), a ticket held, a dealer buy-in
// offered, a cash-out — never at the credit of a note already stacked, which is owed.
func (t *Table) tournamentMoneyRefusal(what string) error {
	if t.tour == nil || !t.tour.Status.Playing() {
		return nil
	}
	return failed("%s refused: %s %s (003 §10.5.2): it takes no money and prints no ticket until the tournament is over; tournament chips are not money (§10.1.1)",
		what, table.TournamentTableRefused, t.tour.Terms.ID)
}

// ---- the rounds --------------------------------------------------------------------------------

// tournamentRound reports whether round r is a tournament round under way.
func (t *Table) tournamentRound(r *round) bool {
	return t.tour != nil && t.tour.Status.Playing() && r != nil && r.id == t.tour.RoundID
}

// tournamentPricing is what a tournament player's slip is priced against: their tournament
// chips and the round's limits. ok is false for a round that is not a tournament round. Any
// other seat is refused: the table is used only for the tournament (003 §10.5.2).
func (t *Table) tournamentPricing(r *round, terminal string) (p pricing, ok bool, err error) {
	if !t.tournamentRound(r) {
		return pricing{}, false, nil
	}
	tr := t.tour
	pl := tr.player(terminal)
	switch {
	case pl == nil:
		return pricing{}, true, failed("this table is reserved for tournament %s: this seat is not in it", tr.Terms.ID)
	case pl.State != table.PlayerPlaying:
		return pricing{}, true, failed("you are %s from tournament %s", pl.State, tr.Terms.ID)
	case !tr.playsRound(pl):
		return pricing{}, true, failed("only the tied players play the playoff")
	}
	return pricing{r: r, balance: pl.Chips, limitsGen: t.limitsGen, limits: tr.Terms.Limits(tr.round()), tour: true,
		inTurn: tr.Terms.OrderOfWagering}, true, nil
}

// checkSecret refuses an undisclosed wager the player may not make.
func (t *Table) checkSecret(terminal, roundID string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tour == nil || !t.tour.Status.Playing() || t.cur == nil || t.cur.id != roundID || roundID != t.tour.RoundID {
		return failed("an undisclosed wager is made only in a tournament round")
	}
	pl := t.tour.player(terminal)
	if pl == nil {
		return failed("this seat is not in the tournament")
	}
	if pl.Secrets <= 0 {
		if sl := t.tour.slips[terminal]; sl == nil || !sl.secret {
			return failed("no undisclosed wagers left (the terms allow %d)", t.tour.Terms.SecretWagers)
		}
	}
	return nil
}

// storeTournamentSlip installs a tournament player's slip and tells the table (the standings
// show each player's wager, or that it is undisclosed).
func (t *Table) storeTournamentSlip(terminal string, in pricing, sl *slip) *table.SlipAck {
	t.tour.slips[terminal] = sl
	ack := sl.ack(in.r.id)
	ack.Available = in.balance - sl.total
	t.emitTournament(t.now())
	return ack
}

// tournamentTerminalLost voids a tournament player's wagers of the round when their terminal's
// last stream ends before the deadline, as a cash slip is (001 §9.7.1; the rules of the game
// apply to tournament play, 003 §10.2.1), and as the kiosk shows it. The void is recorded as
// what it is: in the tournament (Voided, so the round's record says "void: terminal lost" unless
// the player wagers again before the deadline) and in the audit log. It is not a failure to
// wager (003 §10.6.4): it uses no pass card and disqualifies no one; the Director decides on a
// pass card (GrantPassCard). The void stands even if the ledger cannot record it (the slip is
// gone with the terminal); that failure is logged.
func (t *Table) tournamentTerminalLost(terminal string, now time.Time) {
	if !t.tournamentRound(t.cur) || t.tour.slips[terminal] == nil {
		return
	}
	sl := t.tour.slips[terminal]
	delete(t.tour.slips, terminal)
	if !slices.Contains(t.tour.Voided, terminal) {
		t.tour.Voided = append(t.tour.Voided, terminal)
	}
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		if err := putTournament(tx, t.tour, now); err != nil {
			return err
		}
		return tx.Event("tournament-wager-void", terminal, t.cur.id, sl.total, fmt.Sprintf("%s round %d: %s staked %d (%s) void: terminal lost before the deadline (001 §9.7.1)",
			t.tour.Terms.ID, t.tour.round(), terminal, sl.total, sl.wagersText()))
	})
	if err != nil {
		t.log.Error("recording a tournament wager void", "terminal", terminal, "round", t.cur.id, "err", err)
	}
	t.log.Info("tournament player lost before the deadline: wagers void", "terminal", terminal, "round", t.cur.id)
	t.emitTournament(now)
}

// wagersText is a slip's wagers as the tournament's record prints them, e.g. "red x300".
func (sl *slip) wagersText() string {
	var desc []string
	for _, b := range sl.bets {
		if b.Total > 0 {
			desc = append(desc, fmt.Sprintf("%v x%s", b.bet, money.Chips(b.PerPiece))) // chips as the screen counts them
		}
	}
	return strings.Join(desc, ", ")
}

// GrantPassCard is the Tournament Director's decision on a void play (table.PlayVoidTerminalLost
// in round n's record): the player is granted one pass card (003 §10.5.4: the Director sets the
// conditions of pass cards; §10.11.2: the Director decides a dispute). The decision is written
// on that play, with who and when, and in the audit log; one grant per void play, and only for
// a player still playing in a tournament under way.
func (t *Table) GrantPassCard(actor, terminal string, n int, reason string) (*table.Tournament, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" || len(reason) > 500 {
		return nil, invalid("a reason of 1 to 500 characters is required: the decision is recorded")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	tr := t.tour
	if tr == nil || !tr.Status.Playing() {
		return nil, failed("no tournament under way")
	}
	next := tr.clone()
	p := next.player(terminal)
	if p == nil {
		return nil, notFound("seat %s is not in tournament %s", terminal, tr.Terms.ID)
	}
	if p.State != table.PlayerPlaying {
		return nil, failed("%s is %s: a pass card is of no use to them", terminal, p.State)
	}
	var play *table.TournamentPlay
	var roundID string
	for i := range next.Rounds {
		r := &next.Rounds[i]
		if r.N != n || r.Invalidated != "" {
			continue
		}
		next.Rounds[i].Plays = append([]table.TournamentPlay(nil), r.Plays...)
		for k := range r.Plays {
			if r.Plays[k].Terminal == terminal {
				play, roundID = &r.Plays[k], r.RoundID
			}
		}
	}
	switch {
	case play == nil:
		return nil, failed("%s has no play in round %d on record", terminal, n)
	case play.Result != table.PlayVoidTerminalLost:
		return nil, failed("%s's play in round %d was not void because its terminal was lost: no pass card to grant", terminal, n)
	case play.Decision != "":
		return nil, failed("%s's void play in round %d is already decided: %s", terminal, n, play.Decision)
	}
	now := t.now()
	p.Passes++
	play.Decision = fmt.Sprintf("pass card granted by %s at %s: %s", actor, now.UTC().Format(time.RFC3339), reason)
	err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		if err := putTournament(tx, next, now); err != nil {
			return err
		}
		return tx.Event("tournament-pass-granted", terminal, roundID, 0, fmt.Sprintf("%s round %d: %s now has %d pass cards; %s",
			tr.Terms.ID, n, terminal, p.Passes, play.Decision))
	})
	if err != nil {
		return nil, ledgerErr(err)
	}
	t.tour = next
	t.emitTournament(now)
	return t.tournamentView(true), nil
}

// invalidateTournamentRound keeps a tournament round in play that a pit boss invalidates (001
// §12.3) in the tournament's record, in tx: every wager returned (§12.4), chips, pass cards and
// undisclosed wagers unchanged, the round marked invalidated with the reason and not counted as
// played (the next round has its number). The caller installs the new state once tx commits.
func (t *Table) invalidateTournamentRound(tx *ledger.Tx, r *round, reason string, now time.Time) (*tournament, error) {
	if !t.tournamentRound(r) {
		return nil, nil
	}
	if reason == "" {
		reason = "no reason given"
	}
	next := t.tour.clone()
	rec := table.TournamentRound{N: next.round(), RoundID: r.id, Playoff: next.Status == table.TournamentPlayoff, Invalidated: reason}
	var detail strings.Builder
	fmt.Fprintf(&detail, "%s round %d invalidated (%s), every wager returned:", next.Terms.ID, rec.N, reason)
	for _, p := range next.Players {
		if !next.playsRound(p) {
			continue
		}
		play := table.TournamentPlay{Terminal: p.Terminal, Chips: p.Chips}
		if sl := next.slips[p.Terminal]; sl != nil {
			play.Staked, play.Returned, play.Secret, play.Wagers = sl.total, sl.total, sl.secret, sl.wagersText()
		} else if slices.Contains(next.Voided, p.Terminal) {
			play.Result = table.PlayVoidTerminalLost
		}
		rec.Plays = append(rec.Plays, play)
		fmt.Fprintf(&detail, " %s staked %d returned %d;", p.Terminal, play.Staked, play.Returned)
	}
	next.Rounds = append(next.Rounds, rec)
	next.RoundID, next.Closed, next.Voided, next.slips = "", nil, nil, map[string]*slip{}
	if err := putTournament(tx, next, now); err != nil {
		return nil, err
	}
	return next, tx.Event("tournament-round-invalidated", "", r.id, 0, detail.String())
}

// tournamentRoundStarted makes a new round of the table a tournament round (in tx, with the
// round's id known).
func (t *Table) tournamentRoundStarted(tx *ledger.Tx, r *round, now time.Time) (*tournament, error) {
	if t.tour == nil || !t.tour.Status.Playing() {
		return nil, nil
	}
	next := t.tour.clone()
	if next.Status == table.TournamentOpen {
		next.Status = table.TournamentRunning
	}
	next.RoundID, next.Closed, next.Voided, next.slips = r.id, nil, nil, map[string]*slip{}
	if err := putTournament(tx, next, now); err != nil {
		return nil, err
	}
	return next, tx.Event("tournament-round", "", r.id, next.Terms.Minimum(next.round()),
		fmt.Sprintf("%s round %d, minimum %d", next.Terms.ID, next.round(), next.Terms.Minimum(next.round())))
}

// tournamentWageringClosed makes the round's tournament slips durable (in the close's tx).
func (t *Table) tournamentWageringClosed(tx *ledger.Tx, r *round, now time.Time) error {
	if !t.tournamentRound(r) {
		return nil
	}
	t.tour.Closed = t.tour.Closed[:0]
	for _, id := range sortedTerminals(t.tour.slips) {
		sl := t.tour.slips[id]
		body, err := json.Marshal(sl.bets)
		if err != nil {
			return err
		}
		t.tour.Closed = append(t.tour.Closed, tourSlip{Terminal: id, Version: sl.version, Wagers: body, Total: sl.total, Secret: sl.secret})
	}
	return putTournament(tx, t.tour, now)
}

// settleTournament settles a tournament round on outcome n with the rules engine, in tx. The
// new state is installed by the caller once tx has committed.
func (t *Table) settleTournament(tx *ledger.Tx, r *round, n roulette.Number, now time.Time) (*tournament, error) {
	if !t.tournamentRound(r) {
		return nil, nil
	}
	next := t.tour.clone()
	rn := next.round()
	limits := next.Terms.Limits(rn)
	rd := roulette.Round{Outcome: n, Draw: r.draw}
	rec := table.TournamentRound{N: rn, RoundID: r.id, Outcome: n.String(), Playoff: next.Status == table.TournamentPlayoff}
	stakes := map[string]int64{}
	notReached := next.notReached(next.slips)
	for _, p := range next.Players {
		if !next.playsRound(p) {
			continue
		}
		play := table.TournamentPlay{Terminal: p.Terminal}
		sl := next.slips[p.Terminal]
		switch {
		case notReached[p.Terminal]:
			// The turn never reached them (order of wagering): not a failure to wager.
			play.Result = resultNotReached
		case sl != nil && sl.total > 0 && limits.Recognised(sl.total):
			var returned int64
			for _, b := range sl.bets {
				for _, pc := range b.pieces {
					stake, err := money.Mul(pc.Units, b.PerPiece)
					if err == nil {
						returned, err = money.Add(returned, rd.Returned(roulette.Wager{Spot: pc.Spot, Amount: stake}))
					}
					if err != nil {
						return nil, fmt.Errorf("tournament round %s of %s: %w", r.id, p.Terminal, err)
					}
				}
			}
			chips, err := money.Sub(p.Chips, sl.total)
			if err == nil {
				chips, err = money.Add(chips, returned)
			}
			if err != nil {
				return nil, fmt.Errorf("tournament round %s of %s: %w", r.id, p.Terminal, err)
			}
			p.Chips = chips
			if sl.secret && p.Secrets > 0 {
				p.Secrets--
			}
			play.Staked, play.Returned, play.Secret, play.Wagers = sl.total, returned, sl.secret, sl.wagersText()
			stakes[p.Terminal] = sl.total
		case slices.Contains(next.Voided, p.Terminal):
			// Their wagers were void because their terminal was lost (001 §9.7.1): not a
			// failure to wager, so no pass card and no disqualification; the Director may
			// grant a pass card (GrantPassCard).
			play.Result = table.PlayVoidTerminalLost
		case p.Passes > 0:
			p.Passes-- // a pass card in lieu of a wager (003 §10.7)
			play.Passed = true
		default:
			// No wager and no pass card: disqualified (003 §10.6.4); they keep their chips'
			// record (§10.5.6.2) but take no place.
			p.State, p.Out, p.InPlayoff = table.PlayerDisqualified, rn, false
			play.Result = table.PlayerDisqualified
		}
		play.Chips = p.Chips
		rec.Plays = append(rec.Plays, play)
	}
	next.Played++
	next.Rounds = append(next.Rounds, rec)
	next.RoundID, next.Closed, next.Voided, next.slips = "", nil, nil, map[string]*slip{}
	last := &next.Rounds[len(next.Rounds)-1]
	if next.Status == table.TournamentPlayoff {
		// A playoff player who can no longer wager the minimum leaves the playoff, placed by
		// their chips within the tied group; one with no chips left is out, placed within the
		// group too (compare). It goes on while players are still tied.
		next.eliminate(rn, last, stakes, 1)
		next.startPlayoff()
	} else if next.Played < next.Terms.Rounds {
		// Who cannot wager the next round's minimum is out (003 §10.6.13).
		next.eliminate(rn, last, stakes, next.Terms.Minimum(rn+1))
	} else {
		// The schedule is over: a player with chips is placed by them; one with none left
		// is out in this round, not "playing" with 0 chips (§10.10.4 places them).
		next.eliminate(rn, last, stakes, 1)
		next.endOfSchedule()
	}
	if next.playing() == 0 && !next.Status.Final() {
		if err := next.finish(); err != nil {
			return nil, err
		}
	}
	if next.Status == table.TournamentFinished {
		if err := next.finish(); err != nil {
			return nil, err
		}
	}
	if !next.Status.Final() {
		next.moveMarker()
	}
	if err := putTournament(tx, next, now); err != nil {
		return nil, err
	}
	var detail strings.Builder
	fmt.Fprintf(&detail, "%s round %d on %s:", next.Terms.ID, rn, n)
	for _, p := range rec.Plays {
		fmt.Fprintf(&detail, " %s staked %d returned %d chips %d", p.Terminal, p.Staked, p.Returned, p.Chips)
		if p.Secret {
			detail.WriteString(" (undisclosed)")
		}
		if p.Passed {
			detail.WriteString(" (pass)")
		}
		if p.Result != "" {
			detail.WriteString(" (" + p.Result + ")")
		}
		detail.WriteString(";")
	}
	if err := tx.Event("tournament-settled", "", r.id, 0, detail.String()); err != nil {
		return nil, err
	}
	if next.Status == table.TournamentFinished {
		if err := tx.Event("tournament-finished", "", r.id, 0, next.Terms.ID+": "+next.resultLine()); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// eliminate puts out each playing player whose chips are below min (the next round's minimum,
// or 1 when no round follows for them: no chips left), recording it on the round's record.
func (tr *tournament) eliminate(rn int, rec *table.TournamentRound, stakes map[string]int64, min int64) {
	for _, p := range tr.Players {
		if p.State != table.PlayerPlaying || p.Chips >= min {
			continue
		}
		p.State, p.Out, p.OutStake, p.InPlayoff = table.PlayerEliminated, rn, stakes[p.Terminal], false
		for i := range rec.Plays {
			if rec.Plays[i].Terminal == p.Terminal {
				rec.Plays[i].Result = table.PlayerEliminated
			}
		}
	}
}

func (tr *tournament) playing() int {
	n := 0
	for _, p := range tr.Players {
		if p.State == table.PlayerPlaying {
			n++
		}
	}
	return n
}

// endOfSchedule is the end of the last scheduled round: each player's chips are their final
// count (003 §10.5.8); a tie within the prize places is played off (§10.10.3).
func (tr *tournament) endOfSchedule() {
	for _, p := range tr.Players {
		p.Final = p.Chips
	}
	tr.startPlayoff()
}

// startPlayoff marks the players still to play off, if any, and the tournament's status.
func (tr *tournament) startPlayoff() {
	tied := tr.tiedForPrizes()
	for _, p := range tr.Players {
		p.InPlayoff = tied[p.Terminal]
	}
	if len(tied) > 0 {
		tr.Status = table.TournamentPlayoff
	} else {
		tr.Status = table.TournamentFinished
	}
}

// tiedForPrizes is the set of playing players tied on equal chips (other than zero, and enough
// for another round's minimum) whose shared place is a prize place: they play off.
func (tr *tournament) tiedForPrizes() map[string]bool {
	ranked := tr.ranked()
	places := len(tr.Terms.Prizes)
	min := tr.Terms.Minimum(tr.round())
	tied := map[string]bool{}
	for i := 0; i < len(ranked); {
		j := i + 1
		for j < len(ranked) && tr.compare(ranked[i], ranked[j]) == 0 {
			j++
		}
		p := ranked[i]
		if j-i > 1 && i < places && p.State == table.PlayerPlaying && p.Chips > 0 && p.Chips >= min {
			for _, q := range ranked[i:j] {
				tied[q.Terminal] = true
			}
		}
		i = j
	}
	return tied
}

// tiesText names the tied players, group by group in rank order: "T1, T2 on 1100 chips".
func (tr *tournament) tiesText(tied map[string]bool) string {
	var groups, names []string
	var prev *tourPlayer
	flush := func() {
		if len(names) > 0 {
			groups = append(groups, fmt.Sprintf("%s on %d chips", strings.Join(names, ", "), prev.Chips))
		}
		names = nil
	}
	for _, p := range tr.ranked() {
		if !tied[p.Terminal] {
			continue
		}
		if prev != nil && tr.compare(prev, p) != 0 {
			flush()
		}
		names, prev = append(names, p.Terminal), p
	}
	flush()
	return strings.Join(groups, "; ") + " are"
}

// compare orders two players, best first (negative: a before b): players still playing — and
// those out in a playoff, who finished the schedule with them — by their final chips (their
// chips when the schedule ended) then their playoff chips, then the larger last wager (003
// §10.10.4); then the eliminated by the round they went out in, their residual chips, their
// last wager (§10.10.4); the disqualified last. Zero is a tie.
func (tr *tournament) compare(a, b *tourPlayer) int {
	scored := func(p *tourPlayer) bool {
		return p.State == table.PlayerPlaying || (p.State == table.PlayerEliminated && p.Out > tr.Terms.Rounds)
	}
	group := func(p *tourPlayer) int {
		switch {
		case scored(p):
			return 2
		case p.State == table.PlayerEliminated:
			return 1
		}
		return 0
	}
	desc := func(x, y int64) int {
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	}
	if c := desc(int64(group(a)), int64(group(b))); c != 0 {
		return c
	}
	switch {
	case scored(a):
		if tr.Played >= tr.Terms.Rounds {
			if c := desc(a.Final, b.Final); c != 0 {
				return c
			}
		}
		if c := desc(a.Chips, b.Chips); c != 0 {
			return c
		}
		return desc(a.OutStake, b.OutStake) // 0 for players still playing
	case a.State == table.PlayerEliminated:
		if c := desc(int64(a.Out), int64(b.Out)); c != 0 {
			return c
		}
		if c := desc(a.Chips, b.Chips); c != 0 {
			return c
		}
		return desc(a.OutStake, b.OutStake)
	}
	return 0
}

// ranked is the players best first, equal players in seat order.
func (tr *tournament) ranked() []*tourPlayer {
	out := append([]*tourPlayer(nil), tr.Players...)
	sort.SliceStable(out, func(i, j int) bool { return tr.compare(out[i], out[j]) < 0 })
	return out
}

// ranks gives each player their place (equal players share it; the disqualified get 0).
func (tr *tournament) ranks() {
	ranked := tr.ranked()
	for i, p := range ranked {
		switch {
		case p.State == table.PlayerDisqualified:
			p.Rank = 0
		case i > 0 && tr.compare(ranked[i-1], p) == 0:
			p.Rank = ranked[i-1].Rank
		default:
			p.Rank = i + 1
		}
	}
}

// finish records the final places and the prizes: place k's share of the pool; players who
// share places share those places' prizes equally, a cent left over going to the first of
// them in seat order.
func (tr *tournament) finish() error {
	tr.Status = table.TournamentFinished
	tr.RoundID, tr.Closed = "", nil
	for _, p := range tr.Players {
		p.InPlayoff, p.Prize = false, 0
	}
	tr.ranks()
	pool, err := tr.Terms.PrizePool(len(tr.Players))
	if err != nil {
		return err
	}
	share := func(place int) int64 { // 1-based
		if place < 1 || place > len(tr.Terms.Prizes) {
			return 0
		}
		v, err := money.Mul(pool, tr.Terms.Prizes[place-1])
		if err != nil {
			return 0
		}
		return v / 100
	}
	byRank := map[int][]*tourPlayer{}
	for _, p := range tr.Players { // seat order
		if p.Rank > 0 {
			byRank[p.Rank] = append(byRank[p.Rank], p)
		}
	}
	for rank, ps := range byRank {
		var sum int64
		for k := range ps {
			sum += share(rank + k)
		}
		each := sum / int64(len(ps))
		left := sum - each*int64(len(ps))
		for i, p := range ps {
			p.Prize = each
			if int64(i) < left {
				p.Prize++
			}
		}
	}
	return nil
}

// resultLine is the places in one line, for the audit log.
func (tr *tournament) resultLine() string {
	if tr.Status == table.TournamentCancelled {
		// Every entry fee is owed back (003 §10.3.4), seat by seat.
		var owed []string
		var total int64
		for _, p := range tr.Players {
			owed = append(owed, p.Terminal+" "+money.Decimal(tr.Terms.EntryFee))
			total, _ = money.Add(total, tr.Terms.EntryFee)
		}
		return fmt.Sprintf("cancelled: %s; entry fees owed back: %s (%s)", tr.Note, strings.Join(owed, ", "), money.Decimal(total))
	}
	var b strings.Builder
	for i, p := range tr.ranked() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d. %s %d chips prize %d", p.Rank, p.Terminal, p.Chips, p.Prize)
		if p.State != table.PlayerPlaying {
			b.WriteString(" (" + p.State + ")")
		}
	}
	if tr.Note != "" {
		b.WriteString("; " + tr.Note)
	}
	return b.String()
}

// ---- what is told -----------------------------------------------------------------------------

// tournamentView is the tournament as told: all of it for the console (full), or as every
// terminal may see it — without the round records, each undisclosed wager shown only as such.
func (t *Table) tournamentView(full bool) *table.Tournament {
	if t.tour == nil {
		return nil
	}
	var slips map[string]*slip
	if t.cur != nil && t.cur.id == t.tour.RoundID {
		slips = t.tour.slips
	}
	v := t.tour.view(full, slips)
	if t.cur != nil && t.cur.id == t.tour.RoundID && t.cur.phase == table.PhaseWagering {
		v.Turn = t.tour.turn(slips) // whose turn it is, only while wagers are taken
	}
	return v
}

func (tr *tournament) view(full bool, slips map[string]*slip) *table.Tournament {
	v := &table.Tournament{Terms: tr.Terms, Status: tr.Status, Round: tr.round(), Played: tr.Played, RoundID: tr.RoundID, Note: tr.Note,
		Marker: tr.Marker}
	if tr.Status == table.TournamentFinished || tr.Status == table.TournamentCancelled {
		v.Round = tr.Played
	}
	// A cancelled tournament keeps its pool on record, beside the entry fees owed back.
	v.PrizePool, _ = tr.Terms.PrizePool(len(tr.Players))
	if !tr.Status.Final() {
		c := tr.clone()
		c.ranks()
		tr = c
	}
	var last *table.TournamentRound
	if n := len(tr.Rounds); n > 0 && tr.Rounds[n-1].Invalidated == "" { // an invalidated round's wagers were all returned
		last = &tr.Rounds[n-1]
	}
	for _, p := range tr.ranked() {
		s := table.TournamentStanding{Terminal: p.Terminal, Rank: p.Rank, Chips: p.Chips, State: p.State, InPlayoff: p.InPlayoff,
			SecretsLeft: p.Secrets, PassesLeft: p.Passes, Prize: p.Prize, Eliminated: p.Out}
		if tr.Status == table.TournamentCancelled {
			s.Refund = tr.Terms.EntryFee // every entry fee is refunded (003 §10.3.4)
		}
		if sl, ok := slips[p.Terminal]; ok {
			s.Secret, s.WageredInTurn = sl.secret, tr.Terms.OrderOfWagering
			if !sl.secret || full {
				s.RoundStake = sl.total
			}
		} else if slips == nil && last != nil {
			for _, pl := range last.Plays { // the last round's wagers, disclosed with its result
				if pl.Terminal == p.Terminal {
					s.RoundStake, s.Secret = pl.Staked, pl.Secret
				}
			}
		}
		v.Standings = append(v.Standings, s)
	}
	if full {
		v.Rounds = append([]table.TournamentRound(nil), tr.Rounds...)
	}
	return v
}

// emitTournament tells every terminal the tournament's new state.
func (t *Table) emitTournament(now time.Time) {
	t.emit(now, "", table.TournamentChanged{Tournament: t.tournamentView(false)})
}

// tournamentFixed refuses a correction or an invalidation of a tournament round: its tournament
// chips have moved the standings on, and the Director decides (003 §10.11.2).
func (t *Table) tournamentFixed(roundID string) error {
	if t.tour == nil {
		return nil
	}
	for _, r := range t.tour.Rounds {
		if r.RoundID == roundID {
			return failed("round %s is a round of tournament %s: its result stands as recorded (the Tournament Director decides a dispute)", roundID, t.tour.Terms.ID)
		}
	}
	return nil
}

func notFound(format string, a ...any) error { return status.Errorf(codes.NotFound, format, a...) }

// ---- the console's calls (DealerService) --------------------------------------------------------

func (s *dealerService) ConfigureTournament(ctx context.Context, req *pb.ConfigureTournamentRequest) (*pb.Tournament, error) {
	tr, err := s.t.ConfigureTournament(actorOf(ctx), wire.TournamentTermsOf(req.GetTerms()))
	return wire.TournamentPB(tr), err
}

func (s *dealerService) OpenTournament(ctx context.Context, req *pb.OpenTournamentRequest) (*pb.Tournament, error) {
	tr, err := s.t.OpenTournament(actorOf(ctx), req.GetTerminalIds())
	return wire.TournamentPB(tr), err
}

func (s *dealerService) GetTournament(_ context.Context, req *pb.GetTournamentRequest) (*pb.Tournament, error) {
	tr, err := s.t.Tournament(req.GetId())
	return wire.TournamentPB(tr), err
}

func (s *dealerService) GrantPassCard(ctx context.Context, req *pb.GrantPassCardRequest) (*pb.Tournament, error) {
	tr, err := s.t.GrantPassCard(actorOf(ctx), req.GetTerminalId(), int(req.GetRound()), req.GetReason())
	return wire.TournamentPB(tr), err
}

func (s *dealerService) CloseTournament(ctx context.Context, req *pb.CloseTournamentRequest) (*pb.Tournament, error) {
	tr, err := s.t.CloseTournament(actorOf(ctx), req.GetReason())
	return wire.TournamentPB(tr), err
}
