package ledger

// Tournaments (000 §12, 003 §10): each tournament's whole record — its terms, players,
// tournament chips, the rounds played and the results — kept as one sealed row, written in the
// same transaction as the table's round it follows, so a restart resumes the tournament where
// the round left it and the results stay on record once finished (003 §10.5.8). Tournament
// chips are not money: nothing here touches an account, a ticket or a meter.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const tournamentSchema = `
CREATE TABLE IF NOT EXISTS tournaments (
	id      TEXT PRIMARY KEY,
	status  TEXT NOT NULL,
	state   BLOB NOT NULL,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL
);
`

// TournamentRecord is a tournament's stored record: its status and its state (the server's
// encoding).
type TournamentRecord struct {
	ID      string
	Status  string
	State   []byte
	Created time.Time
	Updated time.Time
}

// PutTournament inserts or replaces a tournament's record.
func (t *Tx) PutTournament(r TournamentRecord) error {
	_, err := t.exec(`INSERT INTO tournaments(id, status, state, created, updated) VALUES (?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET status = excluded.status, state = excluded.state, updated = excluded.updated`,
		r.ID, r.Status, r.State, r.Created.UnixNano(), r.Updated.UnixNano())
	if err != nil {
		return fmt.Errorf("ledger: tournament %s: %w", r.ID, err)
	}
	return nil
}

// Tournament reads a tournament's record.
func (l *Ledger) Tournament(ctx context.Context, id string) (TournamentRecord, bool, error) {
	return l.tournament(ctx, `SELECT id, status, state, created, updated FROM tournaments WHERE id = ?`, id)
}

// LatestTournament reads the most recently changed tournament's record.
func (l *Ledger) LatestTournament(ctx context.Context) (TournamentRecord, bool, error) {
	return l.tournament(ctx, `SELECT id, status, state, created, updated FROM tournaments ORDER BY updated DESC, id LIMIT 1`)
}

func (l *Ledger) tournament(ctx context.Context, q string, args ...any) (TournamentRecord, bool, error) {
	var r TournamentRecord
	var created, updated int64
	err := l.db.QueryRowContext(ctx, q, args...).Scan(&r.ID, &r.Status, &r.State, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return TournamentRecord{}, false, nil
	}
	if err != nil {
		return TournamentRecord{}, false, fmt.Errorf("ledger: tournament: %w", err)
	}
	r.Created, r.Updated = time.Unix(0, created), time.Unix(0, updated)
	return r, true, nil
}
