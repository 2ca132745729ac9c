package app

// Tournament play on the terminal (000 §12, 001 §11, 003 §10). The table says what the
// tournament is (table.TournamentChanged, and the snapshot); the terminal shows it — round n
// of N, the player's tournament chips, the round's minimum, the standings, the time left — and
// while the table's rounds are tournament rounds it prices the player's touches against their
// tournament chips and the round's tournament limits with the same rules engine the server
// re-checks with (table.TournamentTerms.Limits). Tournament chips are not money: the chip
// account, the cashier and the journal's money records are left alone — a tournament slip is
// not journalled as a game of the chip account, and a tournament round brings no settlement of
// it, so the meters cannot count one. With an order of wagering (003 §10.9) the terminal
// shows whose turn it is, refuses a touch out of turn or after the player's turn, and sends
// the player's slip once, when they end their turn (EndTurn).

import (
	"context"
	"slices"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Refusals of a touch during a tournament.
var (
	ErrTournamentOnly  = msg.Err("this table is reserved for the tournament")
	ErrOutOfTournament = msg.Err("you are out of the tournament")
	ErrNotInPlayoff    = msg.Err("only the tied players play the playoff")
	ErrNoSecretLeft    = msg.Err("no undisclosed wagers left")
	// The order of wagering (003 §10.9).
	ErrWageredInTurn = msg.Err("your wager was made in turn: it may not be removed or altered")
	ErrNotMyTurn     = msg.Err("it is not your turn to wager")
	ErrNoPassLeft    = msg.Err("no pass card left: wager at least the minimum")
)

// errWaitTurn refuses a touch out of turn, naming whose turn it is (003 §10.9.4).
func errWaitTurn(turn string) error {
	return &msg.Error{Msg: msg.New("wait your turn: %s wagers now", turn)}
}

// TournamentView is the tournament as this terminal shows it.
type TournamentView struct {
	*table.Tournament
	Me      *table.TournamentStanding // this seat's line, nil if it is not in the tournament
	Playing bool                      // this seat wagers this round, in tournament chips
	Secret  bool                      // the player has marked this round's wagers undisclosed
	// With an order of wagering (003 §10.9): MyTurn, this seat wagers now; TurnEnded, the
	// player ended this round's turn and the slip is on its way (the table's word,
	// WageredInTurn, follows).
	MyTurn, TurnEnded bool
	// PassUsed is the round for which the table played one of this seat's pass cards in lieu
	// of a wager (003 §10.7), 0 for none: the player sees that it was used, and how many are
	// left, until the next round settles (issue 32 point 16).
	PassUsed int
	// SecretWhy is why the undisclosed-wager box cannot be ticked now (no more bets, the pad,
	// none left, not their turn…), zero when it can: a box that does nothing when touched
	// must say why (issue 32 point 16).
	SecretWhy msg.Msg
}

// tournamentOnLocked reports whether the table's rounds are tournament rounds now.
func (t *Terminal) tournamentOnLocked() bool {
	tr := t.view.Tournament.Tournament
	return tr != nil && tr.Status.Playing()
}

// tournamentPlayingLocked reports whether this seat wagers the round in tournament chips.
func (t *Terminal) tournamentPlayingLocked() bool {
	if !t.tournamentOnLocked() {
		return false
	}
	tr := t.view.Tournament.Tournament
	me := tr.Standing(t.terminalID)
	return me != nil && me.State == table.PlayerPlaying && (tr.Status != table.TournamentPlayoff || me.InPlayoff)
}

// tournamentRefusalLocked is why this seat may not wager in a tournament round, nil if it may
// (or the round is not a tournament round).
func (t *Terminal) tournamentRefusalLocked() error {
	if !t.tournamentOnLocked() || t.tournamentPlayingLocked() {
		return nil
	}
	me := t.view.Tournament.Tournament.Standing(t.terminalID)
	switch {
	case me == nil:
		return ErrTournamentOnly
	case me.State != table.PlayerPlaying:
		return ErrOutOfTournament
	}
	return ErrNotInPlayoff
}

// orderedLocked reports whether this seat wagers the round under an order of wagering (003
// §10.9): its chips stay on the screen until the player ends their turn (EndTurn), and the
// slip goes to the table once, since the wager is then final.
func (t *Terminal) orderedLocked() bool {
	return t.tournamentPlayingLocked() && t.view.Tournament.Terms.OrderOfWagering
}

// turnRefusalLocked is why this seat may not touch its wagers now under an order of wagering,
// nil if it may: its wager made in turn is final (§10.9.5), and out of turn it waits (§10.9.4).
func (t *Terminal) turnRefusalLocked() error {
	if !t.orderedLocked() {
		return nil
	}
	tr := t.view.Tournament.Tournament
	if me := tr.Standing(t.terminalID); me != nil && me.WageredInTurn || t.turnEnded == t.view.RoundID {
		return ErrWageredInTurn
	}
	if tr.Turn != t.terminalID {
		if tr.Turn == "" {
			return ErrNotMyTurn
		}
		return errWaitTurn(tr.Turn)
	}
	return nil
}

// EndTurn ends the player's turn under an order of wagering (003 §10.9): the wagers on the
// layout go to the table as the player's final wager of the round, or, with none, a pass card
// is played (003 §10.7). A wager below the round's minimum is refused here as at the table.
func (t *Terminal) EndTurn() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canChangeLocked(); err != nil {
		return t.refuseLocked(err)
	}
	if !t.orderedLocked() {
		return t.refuseLocked(ErrNotMyTurn)
	}
	tr := t.view.Tournament.Tournament
	total := t.slip.Total(t.view.Config.Layout)
	switch {
	case total == 0 && tr.Standing(t.terminalID).PassesLeft <= 0:
		return t.refuseLocked(ErrNoPassLeft)
	case total > 0 && !tr.Terms.Limits(tr.Round).Recognised(total):
		return t.refuseLocked(&msg.Error{Msg: msg.New("wager at least the minimum of %s before you end your turn", money.Chips(tr.Minimum()))})
	}
	t.turnEnded = t.view.RoundID
	t.slipDue = true
	t.wakeSyncLocked()
	t.changedLocked()
	return nil
}

// betBalanceLocked is what the player's wagers draw on: their tournament chips in a tournament
// round, else the chip account.
func (t *Terminal) betBalanceLocked() int64 {
	if t.tournamentPlayingLocked() {
		return t.view.Tournament.Standing(t.terminalID).Chips
	}
	return t.view.Balance
}

// betLimitsLocked are the limits the player's wagers are priced with: the round's tournament
// limits in a tournament round, else the table's.
func (t *Terminal) betLimitsLocked() roulette.Limits {
	if t.tournamentPlayingLocked() {
		tr := t.view.Tournament.Tournament
		return tr.Terms.Limits(tr.Round)
	}
	return t.view.Limits
}

// SetSecret marks (or unmarks) this round's wagers as an undisclosed wager (003 §10.8): the
// other players see only that there is one until the round's result. Only a tournament player
// with an undisclosed wager left may.
func (t *Terminal) SetSecret(on bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canChangeLocked(); err != nil {
		return t.refuseLocked(err)
	}
	if !t.tournamentPlayingLocked() {
		return t.refuseLocked(ErrTournamentOnly)
	}
	if on && t.view.Tournament.Standing(t.terminalID).SecretsLeft <= 0 {
		return t.refuseLocked(ErrNoSecretLeft)
	}
	if t.view.Tournament.Secret != on {
		t.view.Tournament.Secret = on
		t.touchedLocked()
		t.changedLocked()
	}
	return nil
}

// onTournament takes the table's new tournament state. A pass card the table played for this
// seat (its count went down as a round settled) is remembered for the screen; the places and
// prizes of a finished tournament are said on the message line as well as in the panel, since
// a prize is what the player most needs to read (issue 32 point 16).
func (t *Terminal) onTournament(tr *table.Tournament) {
	old := t.view.Tournament.Tournament
	t.view.Tournament.Tournament = tr
	if tr == nil {
		t.view.Tournament.PassUsed = 0
		return
	}
	was, me := old.Standing(t.terminalID), tr.Standing(t.terminalID)
	if old != nil && old.Terms.ID != tr.Terms.ID {
		was, t.view.Tournament.PassUsed = nil, 0
	}
	if was != nil && me != nil && me.PassesLeft < was.PassesLeft {
		t.view.Tournament.PassUsed = tr.Played
	}
	if me != nil && tr.Status == table.TournamentFinished && (old == nil || old.Status != table.TournamentFinished) {
		switch {
		case me.Prize > 0:
			t.sayLocked(msg.New("Tournament over: your place %d, prize %s", me.Rank, money.Amount(me.Prize)), MoneyNews)
		case me.Rank > 0:
			t.sayLocked(msg.New("Tournament over: your place %d", me.Rank), TableNews)
		}
	}
	t.offerChipsLocked()
}

// tournamentOutcomeLocked ends this seat's tournament round at its outcome: the chips leave
// the layout (the table's next state has the new count) and the result marks its wagers, as
// a settlement does in the cash game.
func (t *Terminal) tournamentOutcomeLocked(o table.Outcome) {
	if !t.tournamentPlayingLocked() {
		return
	}
	stakes := append([]Stake(nil), t.slip.Stakes()...)
	if len(stakes) > 0 {
		t.lastRound = stakes
	}
	t.view.Result = resultOf(stakes, t.view.Config.Layout, o.Number, t.view.LuckyBall)
	t.view.Tournament.Secret = false
	t.slip.reset(nil)
}

// tournamentViewLocked completes the view's tournament: this seat's line and whether it plays.
func (t *Terminal) tournamentViewLocked(v *View) {
	if v.Tournament.Tournament == nil {
		return
	}
	v.Tournament.Me = v.Tournament.Standing(t.terminalID)
	v.Tournament.Playing = t.tournamentPlayingLocked()
	v.Tournament.TurnEnded = v.Tournament.Playing && t.turnEnded == v.RoundID
	v.Tournament.MyTurn = v.Tournament.Playing && v.Tournament.Terms.OrderOfWagering && v.Tournament.Turn == t.terminalID &&
		!v.Tournament.TurnEnded && (v.Tournament.Me == nil || !v.Tournament.Me.WageredInTurn)
	if v.Tournament.Playing {
		v.Available = v.Tournament.Me.Chips - v.SlipTotal
		v.Tournament.SecretWhy = t.secretWhyLocked()
	}
	if tr := v.Tournament.Tournament; v.Tournament.PassUsed != 0 && tr.Played != v.Tournament.PassUsed {
		v.Tournament.PassUsed = 0 // a later round has settled: the pass is old news
	}
}

// secretWhyLocked is why this playing seat cannot tick the undisclosed-wager box now, zero if
// it can. The player-ID pad is left out: it is touched with the box, so its refusal is the
// answer to that touch (ErrPadNotTouched), not a state of the box.
func (t *Terminal) secretWhyLocked() msg.Msg {
	me := t.view.Tournament.Standing(t.terminalID)
	if !t.view.Tournament.Secret && me.SecretsLeft <= 0 {
		return msg.Of(ErrNoSecretLeft)
	}
	if err := t.changeRefusalLocked(); err != nil && err != ErrPadNotTouched && err != ErrNoPlayerCard {
		return msg.Of(err)
	}
	return msg.Msg{}
}

// chipsOfferedLocked are the chips the tray offers: the table's, less — in a tournament round
// — those below the round's minimum wager, which could never be placed (001 §4.3.1: a wager
// below the minimum puts no chips down; issue 32 point 16). Never none: if no chip reaches the
// minimum the tray keeps them all, and the refusal says why.
func (t *Terminal) chipsOfferedLocked() []int64 {
	all := t.view.Config.Chips
	if !t.tournamentPlayingLocked() {
		return all
	}
	m := t.view.Tournament.Minimum()
	var out []int64
	for _, c := range all {
		if c >= m {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// offerChipsLocked keeps the chosen chip among those offered: the smallest offered when the
// chosen one left the tray (a tournament round's minimum above it).
func (t *Terminal) offerChipsLocked() {
	offered := t.chipsOfferedLocked()
	if len(offered) > 0 && !slices.Contains(offered, t.view.Chip) {
		t.view.Chip = offered[0]
	}
}

// slipSender is a link that can mark a slip undisclosed (the client does).
type slipSender interface {
	UpdateSlipSecret(ctx context.Context, roundID string, version uint64, bets []table.SlipBet, secret bool) (*table.SlipAck, error)
}
