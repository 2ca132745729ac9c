package ledger

// The table server's side of the terminal journals' seal (app/journal): every money request a
// terminal makes carries its journal's head (the seq and MAC of its last record), and the
// ledger keeps the newest head it acknowledged per terminal — the anchor a terminal checks its
// journal against when it starts, which is how a journal cut short, put back to an older copy,
// or replaced by a new one is found.
//
// And the notes: a terminal reports each note in escrow before it has it stacked, so a credit
// asked for a note — live, or by recovery after a restart, from the journal — is paid only for
// a note the server was told of, for the amount it was told: a record forged in a journal
// cannot invent one.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const anchorSchema = `
CREATE TABLE IF NOT EXISTS journal_anchors (
	terminal TEXT PRIMARY KEY,
	seq      INTEGER NOT NULL,
	mac      BLOB NOT NULL,
	at       INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS note_escrows (
	terminal TEXT NOT NULL,
	key      TEXT NOT NULL,
	amount   INTEGER NOT NULL,
	code     TEXT NOT NULL,
	state    TEXT NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (terminal, key)
);
`

// Anchor is the newest journal head a terminal's acknowledged requests carried.
type Anchor struct {
	Seq int64
	MAC []byte
}

// ErrAnchorConflict is returned by PutAnchor when a head names a record the server already
// anchored, with another MAC: two journals are speaking for one terminal.
var ErrAnchorConflict = errors.New("journal head conflicts with the anchor")

// Anchor reads a terminal's anchor; Seq 0 when it has none.
func (t *Tx) Anchor(terminal string) (Anchor, error) {
	var a Anchor
	err := t.queryRow(`SELECT seq, mac FROM journal_anchors WHERE terminal = ?`, terminal).Scan(&a.Seq, &a.MAC)
	if errors.Is(err, sql.ErrNoRows) {
		// An anchor deleted would let a journal put back to an older copy pass.
		return Anchor{}, t.checkGone("journal_anchors", terminal)
	}
	if err != nil {
		return Anchor{}, fmt.Errorf("ledger: anchor %s: %w", terminal, err)
	}
	return a, nil
}

// PutAnchor moves a terminal's anchor forward to a: never back (requests may arrive out of
// order), and a head at the anchored seq with another MAC is ErrAnchorConflict.
func (t *Tx) PutAnchor(terminal string, a Anchor) error {
	old, err := t.Anchor(terminal)
	if err != nil {
		return err
	}
	switch {
	case a.Seq == old.Seq && old.Seq > 0 && string(a.MAC) != string(old.MAC):
		return fmt.Errorf("terminal %s record %d: %w", terminal, a.Seq, ErrAnchorConflict)
	case a.Seq <= old.Seq:
		return nil
	}
	_, err = t.exec(`INSERT INTO journal_anchors(terminal, seq, mac, at) VALUES (?,?,?,?)
		ON CONFLICT(terminal) DO UPDATE SET seq = excluded.seq, mac = excluded.mac, at = excluded.at`,
		terminal, a.Seq, a.MAC, t.now.UnixNano())
	if err != nil {
		return fmt.Errorf("ledger: anchor %s: %w", terminal, err)
	}
	return nil
}

// ClearAnchor forgets a terminal's anchor: a supervisor's decision that its new journal is to
// be trusted (a replaced disk). The caller records who decided.
func (t *Tx) ClearAnchor(terminal string) (bool, error) {
	res, err := t.exec(`DELETE FROM journal_anchors WHERE terminal = ?`, terminal)
	if err != nil {
		return false, fmt.Errorf("ledger: anchor %s: %w", terminal, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Note escrow states.
const (
	NoteEscrowed = "escrowed"
	NoteCredited = "credited"
)

// NoteEscrow is a note a terminal reported in its acceptor's escrow.
type NoteEscrow struct {
	Terminal, Key, Code string
	Amount              int64
	State               string
}

// NoteEscrow reads a reported note.
func (t *Tx) NoteEscrow(terminal, key string) (NoteEscrow, bool, error) {
	if err := keyText(terminal, key); err != nil {
		return NoteEscrow{}, false, err
	}
	n := NoteEscrow{Terminal: terminal, Key: key}
	err := t.queryRow(`SELECT amount, code, state FROM note_escrows WHERE terminal = ? AND key = ?`, terminal, key).
		Scan(&n.Amount, &n.Code, &n.State)
	if errors.Is(err, sql.ErrNoRows) {
		return NoteEscrow{}, false, t.checkGone("note_escrows", terminal, key)
	}
	if err != nil {
		return NoteEscrow{}, false, fmt.Errorf("ledger: note %s: %w", key, err)
	}
	if err := t.checkRead("note_escrows", "terminal = ? AND key = ?", terminal, key); err != nil {
		return NoteEscrow{}, false, err
	}
	return n, true, nil
}

// PutNoteEscrow inserts or updates a reported note.
func (t *Tx) PutNoteEscrow(n NoteEscrow) error {
	if err := keyText(n.Terminal, n.Key); err != nil {
		return err
	}
	_, err := t.exec(`INSERT INTO note_escrows(terminal, key, amount, code, state, at) VALUES (?,?,?,?,?,?)
		ON CONFLICT(terminal, key) DO UPDATE SET state = excluded.state`,
		n.Terminal, n.Key, n.Amount, n.Code, n.State, t.now.UnixNano())
	if err != nil {
		return fmt.Errorf("ledger: note %s: %w", n.Key, err)
	}
	return nil
}

// Anchors reads every terminal's anchor (audits: tableserver verify).
func (l *Ledger) Anchors(ctx context.Context) (map[string]Anchor, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT terminal, seq, mac FROM journal_anchors ORDER BY terminal`)
	if err != nil {
		return nil, fmt.Errorf("ledger: anchors: %w", err)
	}
	defer rows.Close()
	out := map[string]Anchor{}
	for rows.Next() {
		var id string
		var a Anchor
		if err := rows.Scan(&id, &a.Seq, &a.MAC); err != nil {
			return nil, fmt.Errorf("ledger: anchors: %w", err)
		}
		out[id] = a
	}
	return out, rows.Err()
}
