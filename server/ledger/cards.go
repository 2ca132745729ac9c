package ledger

// The player cards of carded play and pre-commitment (issue 31, SPEC §10): each card's state,
// limits and the play counted against them, and the stakes its open slips hold back. They are
// floor rows (floor_cards, floor_card_holds): on PostgreSQL in schema floor, sealed under the
// floor's key, so one card's limits bind at every table of the floor; on SQLite in the table's
// file. The rules that read and change them are server/precommit's; the ledger only keeps the
// rows, sealed, and checks each at its read (checkRead), since every one decides whether a
// wager is taken.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

const cardsSchema = `
CREATE TABLE IF NOT EXISTS floor_cards (
	card          TEXT PRIMARY KEY,
	state         TEXT NOT NULL,
	loss_limit    INTEGER NOT NULL DEFAULT 0,
	time_limit    INTEGER NOT NULL DEFAULT 0,
	bar_period    INTEGER NOT NULL DEFAULT 0,
	next_loss     INTEGER NOT NULL DEFAULT 0,
	next_time     INTEGER NOT NULL DEFAULT 0,
	next_bar      INTEGER NOT NULL DEFAULT 0,
	next_from     INTEGER NOT NULL DEFAULT 0,
	period_start  INTEGER NOT NULL DEFAULT 0,
	staked        INTEGER NOT NULL DEFAULT 0,
	returned      INTEGER NOT NULL DEFAULT 0,
	reserved      INTEGER NOT NULL DEFAULT 0,
	barred_until  INTEGER NOT NULL DEFAULT 0,
	barred_for    TEXT NOT NULL DEFAULT '',
	held_by       TEXT NOT NULL DEFAULT '',
	changed       INTEGER NOT NULL DEFAULT 0,
	play_from     INTEGER NOT NULL DEFAULT 0,
	played_at     INTEGER NOT NULL DEFAULT 0,
	break_until   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS floor_card_holds (
	card   TEXT NOT NULL,
	hold   TEXT NOT NULL,
	amount INTEGER NOT NULL,
	PRIMARY KEY (card, hold)
);
`

// CardRow is a player card's row as stored: times in Unix nanoseconds (0 none), durations in
// nanoseconds, money in cents. server/precommit gives the fields their meaning.
type CardRow struct {
	Card                        string
	State                       string
	LossLimit, TimeLimit, Bar   int64
	NextLoss, NextTime, NextBar int64
	NextFrom                    int64
	PeriodStart                 int64
	Staked, Returned, Reserved  int64
	BarredUntil                 int64
	BarredFor                   string
	HeldBy                      string
	Changed                     int64
	PlayFrom, PlayedAt          int64 // continuous play: its start, and its latest wager
	BreakUntil                  int64
}

const cardCols = `card, state, loss_limit, time_limit, bar_period, next_loss, next_time, next_bar, next_from,
	period_start, staked, returned, reserved, barred_until, barred_for, held_by, changed, play_from, played_at, break_until`

// Card reads a card's row for a change, holding it until the commit: on PostgreSQL the row
// lock, so two tables deciding a wager on one card decide one after the other, the second on
// what the first committed (SQLite has one writer). ok is false for a card the floor has never
// registered.
func (t *Tx) Card(card string) (c CardRow, ok bool, err error) {
	if err := keyText(card); err != nil {
		return CardRow{}, false, err
	}
	err = t.queryRow(`SELECT `+cardCols+` FROM floor_cards WHERE card = ?`+t.l.lockRow(), card).Scan(
		&c.Card, &c.State, &c.LossLimit, &c.TimeLimit, &c.Bar, &c.NextLoss, &c.NextTime, &c.NextBar, &c.NextFrom,
		&c.PeriodStart, &c.Staked, &c.Returned, &c.Reserved, &c.BarredUntil, &c.BarredFor, &c.HeldBy, &c.Changed,
		&c.PlayFrom, &c.PlayedAt, &c.BreakUntil)
	if errors.Is(err, sql.ErrNoRows) {
		return CardRow{}, false, t.checkGone("floor_cards", card)
	}
	if err != nil {
		return CardRow{}, false, fmt.Errorf("ledger: card %s: %w", card, err)
	}
	if err := t.checkRead("floor_cards", "card = ?", card); err != nil {
		return CardRow{}, false, err
	}
	return c, true, nil
}

// PutCard writes a card's row.
func (t *Tx) PutCard(c CardRow) error {
	if err := keyText(c.Card); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO floor_cards(`+cardCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(card) DO UPDATE SET state = excluded.state, loss_limit = excluded.loss_limit,
		time_limit = excluded.time_limit, bar_period = excluded.bar_period, next_loss = excluded.next_loss,
		next_time = excluded.next_time, next_bar = excluded.next_bar, next_from = excluded.next_from,
		period_start = excluded.period_start, staked = excluded.staked, returned = excluded.returned,
		reserved = excluded.reserved, barred_until = excluded.barred_until, barred_for = excluded.barred_for,
		held_by = excluded.held_by, changed = excluded.changed, play_from = excluded.play_from,
		played_at = excluded.played_at, break_until = excluded.break_until`,
		c.Card, c.State, c.LossLimit, c.TimeLimit, c.Bar, c.NextLoss, c.NextTime, c.NextBar, c.NextFrom,
		c.PeriodStart, c.Staked, c.Returned, c.Reserved, c.BarredUntil, c.BarredFor, c.HeldBy, c.Changed,
		c.PlayFrom, c.PlayedAt, c.BreakUntil)
	if err != nil {
		return fmt.Errorf("ledger: card %s: %w", c.Card, err)
	}
	return nil
}

// CardHold is the stake hold (a table's seat's slip of a round, as server/precommit names it)
// keeps back on card; ok false when it keeps none. Read under the card's row lock (Card first).
func (t *Tx) CardHold(card, hold string) (amount int64, ok bool, err error) {
	if err := keyText(card, hold); err != nil {
		return 0, false, err
	}
	err = t.queryRow(`SELECT amount FROM floor_card_holds WHERE card = ? AND hold = ?`, card, hold).Scan(&amount)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, t.checkGone("floor_card_holds", card, hold)
	}
	if err != nil {
		return 0, false, fmt.Errorf("ledger: card %s hold %s: %w", card, hold, err)
	}
	if err := t.checkRead("floor_card_holds", "card = ? AND hold = ?", card, hold); err != nil {
		return 0, false, err
	}
	return amount, true, nil
}

// PutCardHold writes the stake hold keeps back on card (server/precommit writes -1 for a hold
// whose round has settled or been voided: it keeps nothing back and takes no stake again).
func (t *Tx) PutCardHold(card, hold string, amount int64) error {
	if err := keyText(card, hold); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO floor_card_holds(card, hold, amount) VALUES (?,?,?)
		ON CONFLICT(card, hold) DO UPDATE SET amount = excluded.amount`, card, hold, amount)
	if err != nil {
		return fmt.Errorf("ledger: card %s hold %s: %w", card, hold, err)
	}
	return nil
}

// Now is the time the transaction was begun for: what its events are written at.
func (t *Tx) Now() time.Time { return t.now }

// As runs fn in t on behalf of ctx's actor at now, then restores t's own: one transaction
// that carries several callers' changes (precommit's grouped allowances) journals each under
// its caller's actor and time, as its own transaction would have. ctx's cancellation is not
// taken: one caller's cancelled context must not fail the changes of the others.
func (t *Tx) As(ctx context.Context, now time.Time, fn func(*Tx) error) error {
	ctx0, now0 := t.ctx, t.now
	t.ctx, t.now = context.WithoutCancel(ctx), now
	defer func() { t.ctx, t.now = ctx0, now0 }()
	return fn(t)
}

// OpenCardHolds lists the holds of a table's seats (their names begin with prefix, e.g. "T1/")
// that keep a stake back: what a table server restarting finds of slips it took before.
func (t *Tx) OpenCardHolds(prefix string) (cards, holds []string, amounts []int64, err error) {
	rows, err := t.query(`SELECT card, hold, amount FROM floor_card_holds WHERE amount > 0 AND substr(hold, 1, ?) = ? ORDER BY card, hold`, len(prefix), prefix)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ledger: open card holds: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c, h string
		var a int64
		if err := rows.Scan(&c, &h, &a); err != nil {
			return nil, nil, nil, fmt.Errorf("ledger: open card holds: %w", err)
		}
		cards, holds, amounts = append(cards, c), append(holds, h), append(amounts, a)
	}
	return cards, holds, amounts, rows.Err()
}

// The person a card is registered to (issue 31: the card tied to a verified identity). The cage
// records the holder's name, the kind of document checked, its last characters (what a cashier
// reads back to the holder: "passport ending 4567") and a keyed digest of the whole document
// (IdentityDigest) — never the document's number in clear: a card needs to know that the
// document was checked and whether two registrations are the same person, not the number
// itself, and a copy of every player's passport number in the floor's database would be a
// second identity register to guard. (The reporting threshold's records, cage_patrons, keep
// the number: the AML/CTF Act's reports need it.)
const cardOwnersSchema = `
CREATE TABLE IF NOT EXISTS floor_card_owners (
	card      TEXT PRIMARY KEY,
	name      TEXT NOT NULL,
	id_type   TEXT NOT NULL,
	id_tail   TEXT NOT NULL,
	id_digest TEXT NOT NULL,
	since     INTEGER NOT NULL,
	by_whom   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS floor_card_spans (
	card  TEXT PRIMARY KEY,
	spans TEXT NOT NULL
);
`

// CardOwner is the person a card is (or was last) registered to.
type CardOwner struct {
	Card     string
	Name     string
	IDType   string // "passport", "driver licence", …
	IDTail   string // the document number's last characters
	IDDigest string // IdentityDigest of the document (hex)
	Since    int64  // registered at (Unix nanoseconds)
	By       string // the cashier who checked the document (role:id)
}

// CardOwner reads the person card was last registered to; ok false when none was.
func (t *Tx) CardOwner(card string) (o CardOwner, ok bool, err error) {
	if err := keyText(card); err != nil {
		return CardOwner{}, false, err
	}
	err = t.queryRow(`SELECT card, name, id_type, id_tail, id_digest, since, by_whom FROM floor_card_owners WHERE card = ?`, card).
		Scan(&o.Card, &o.Name, &o.IDType, &o.IDTail, &o.IDDigest, &o.Since, &o.By)
	if errors.Is(err, sql.ErrNoRows) {
		return CardOwner{}, false, t.checkGone("floor_card_owners", card)
	}
	if err != nil {
		return CardOwner{}, false, fmt.Errorf("ledger: card %s owner: %w", card, err)
	}
	if err := t.checkRead("floor_card_owners", "card = ?", card); err != nil {
		return CardOwner{}, false, err
	}
	return o, true, nil
}

// PutCardOwner records the person card is registered to, replacing the one before.
func (t *Tx) PutCardOwner(o CardOwner) error {
	if err := keyText(o.Card); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO floor_card_owners(card, name, id_type, id_tail, id_digest, since, by_whom) VALUES (?,?,?,?,?,?,?)
		ON CONFLICT(card) DO UPDATE SET name = excluded.name, id_type = excluded.id_type, id_tail = excluded.id_tail,
		id_digest = excluded.id_digest, since = excluded.since, by_whom = excluded.by_whom`,
		o.Card, o.Name, o.IDType, o.IDTail, o.IDDigest, o.Since, o.By)
	if err != nil {
		return fmt.Errorf("ledger: card %s owner: %w", o.Card, err)
	}
	return nil
}

// CardsOfIdentity lists the cards registered (now or last) to the identity document whose
// digest is digest, oldest registration first.
func (t *Tx) CardsOfIdentity(digest string) ([]string, error) {
	rows, err := t.query(`SELECT card FROM floor_card_owners WHERE id_digest = ? ORDER BY since, card`, digest)
	if err != nil {
		return nil, fmt.Errorf("ledger: cards of an identity: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("ledger: cards of an identity: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// IdentityDigest is the keyed digest (HMAC-SHA-256, hex) of an identity document as the cage
// records it: under a key derived from the floor's sealing key, which every table server of
// the floor holds and the database does not, so the digests in floor_card_owners cannot be
// reversed by trying every passport number without the key. The same document gives the same
// digest at every table of the floor. (A reseal under a new key changes every digest: the
// cards registered before are then matched by name and document at the cage, not by digest.)
func (t *Tx) IdentityDigest(parts ...string) (string, error) {
	key := t.l.floorKey()
	if len(key) == 0 {
		return "", errors.New("ledger: no floor key to digest an identity under")
	}
	derive := hmac.New(sha256.New, key)
	derive.Write([]byte("ats identity digest v1"))
	m := hmac.New(sha256.New, derive.Sum(nil))
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil)), nil
}

// floorKey is the key the floor's rows are sealed under: the floor scope's on PostgreSQL, the
// file's on SQLite (a table alone is its own floor).
func (l *Ledger) floorKey() []byte {
	if l.seal == nil || len(l.seal.scopes) == 0 {
		return nil
	}
	for _, sc := range l.seal.scopes {
		if sc.floor {
			return sc.key
		}
	}
	return l.seal.scopes[0].key
}

// CardSpans is a card's stretches of continuous play of the last 7 days, as server/precommit
// encodes them ("" none): what the day's break and the weekly cap are measured over. Read
// under the card's row lock (Card first).
func (t *Tx) CardSpans(card string) (string, error) {
	if err := keyText(card); err != nil {
		return "", err
	}
	var spans string
	err := t.queryRow(`SELECT spans FROM floor_card_spans WHERE card = ?`, card).Scan(&spans)
	if errors.Is(err, sql.ErrNoRows) {
		return "", t.checkGone("floor_card_spans", card)
	}
	if err != nil {
		return "", fmt.Errorf("ledger: card %s spans: %w", card, err)
	}
	if err := t.checkRead("floor_card_spans", "card = ?", card); err != nil {
		return "", err
	}
	return spans, nil
}

// PutCardSpans writes a card's spans of play.
func (t *Tx) PutCardSpans(card, spans string) error {
	if err := keyText(card); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO floor_card_spans(card, spans) VALUES (?,?) ON CONFLICT(card) DO UPDATE SET spans = excluded.spans`, card, spans)
	if err != nil {
		return fmt.Errorf("ledger: card %s spans: %w", card, err)
	}
	return nil
}
