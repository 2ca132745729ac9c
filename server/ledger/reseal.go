package ledger

// Re-sealing, the operator's explicit act (issue 34, finding 3). A ledger is sealed from its
// creation; one that holds rows and no seal is refused at start (ErrUnsealed), because sealing
// it as found is exactly what an editor who stripped the seal wants. When an operator must
// trust a ledger as it stands anyway — a ledger from before the seal, a key lost for good —
// Reseal seals it, and says so for good: who, why and when in ledger_reseals (a sealed table,
// so the mark cannot be taken out without the key), a ledger-resealed event in the audit log,
// and an alarm the dealer's console and the floor's reports show.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// resealOrder is who ordered a reseal and why; found is what the seal was found as.
type resealOrder struct {
	who, why, found string
	at              time.Time
}

// Resealed is the mark a reseal left.
type Resealed struct {
	At    time.Time
	By    string
	Why   string
	Rows  int64  // rows sealed
	Found string // what was found: "no seal head, no key file", …
}

// Reseal seals the table's own rows of the ledger cfg names as they stand, under its key file
// (made if it is missing), and marks the ledger (see above). by and why are required. It
// returns the number of rows sealed. The ledger must not be open elsewhere.
func Reseal(ctx context.Context, cfg StoreConfig, by, why string) (int64, error) {
	for name, v := range map[string]string{"who orders it (-by)": by, "why (-why)": why} {
		if strings.TrimSpace(v) == "" {
			return 0, fmt.Errorf("ledger: a reseal needs %s", name)
		}
		if len(v) > 500 || strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return 0, fmt.Errorf("ledger: reseal: %s: at most 500 characters, no control characters", name)
		}
	}
	cfg.MustExist = true
	cfg.reseal = &resealOrder{who: by, why: why, at: time.Now()}
	l, err := OpenStore(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Verify(ctx)
}

// resealFound says what a reseal found of the seal.
func resealFound(heads int, haveKey bool, keyPath string) string {
	var f []string
	if heads == 0 {
		f = append(f, "no seal head")
	} else {
		f = append(f, "a seal head")
	}
	if haveKey {
		f = append(f, "key file "+keyPath)
	} else {
		f = append(f, "no key file (a new key made at "+keyPath+")")
	}
	return strings.Join(f, ", ")
}

// write records the mark in tx, before the transaction seals its own rows.
func (o *resealOrder) write(ctx context.Context, tx *sql.Tx, rows int64) error {
	at := o.at.UnixNano()
	if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_reseals(at, who, why, sealed_rows, found) VALUES (?,?,?,?,?)`,
		at, o.who, o.why, rows, o.found); err != nil {
		return fmt.Errorf("ledger: reseal mark: %w", err)
	}
	detail := fmt.Sprintf("ledger re-sealed as it stood by %s: %s (%d rows; found %s)", o.who, o.why, rows, o.found)
	for _, ev := range [][2]string{{"ledger-resealed", detail}, {"alarm", "ledger-resealed: " + detail}} {
		// No actor column named: a ledger from before it (migration 2) is sealed before it is
		// migrated. The detail names who.
		if _, err := tx.ExecContext(ctx, `INSERT INTO events(at, kind, terminal, round, amount, detail) VALUES (?,?,?,?,?,?)`,
			at, ev[0], "", "", rows, ev[1]); err != nil {
			return fmt.Errorf("ledger: reseal mark: %w", err)
		}
	}
	return nil
}

// Reseals are the marks every reseal of the ledger left, oldest first: none for a ledger
// sealed since its creation.
func (l *Ledger) Reseals(ctx context.Context) ([]Resealed, error) { return l.resealsIn(ctx, "") }

// resealsIn is Reseals of the tables of schema ("" the connection's own; else "name.").
func (l *Ledger) resealsIn(ctx context.Context, schema string) ([]Resealed, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT at, who, why, sealed_rows, found FROM `+schema+`ledger_reseals ORDER BY at`)
	if err != nil {
		return nil, fmt.Errorf("ledger: reseals: %w", err)
	}
	defer rows.Close()
	var out []Resealed
	for rows.Next() {
		var r Resealed
		var at int64
		if err := rows.Scan(&at, &r.By, &r.Why, &r.Rows, &r.Found); err != nil {
			return nil, fmt.Errorf("ledger: reseals: %w", err)
		}
		r.At = time.Unix(0, at)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, errors.Join(errors.New("ledger: reseals"), err)
	}
	return out, nil
}
