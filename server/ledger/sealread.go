package ledger

// The seal checked at the read (issue 34, finding 2). A row the server only reads — an
// earlier round's slip a correction settles again, the settlement it reverses, an account a
// settlement starts from, a ticket a redemption pays — is never sealed over, so the pre-image
// check (sealpreimage.go) never sees it: edited without the key and without a note, it was
// used as it stood, and only the next verification found it. So every reader a money decision
// goes through checks the rows it read against their seals in the same transaction
// (checkRead): the same WHERE, one statement, each row's old seal fetched beside it by the
// seal's primary key, and each row's MAC computed as verify computes it. A mismatch is
// ErrTampered naming the row; the decision is not made (nothing of the transaction commits)
// and the ledger's tamper hook (OnTampered) raises the alarm.
//
// A row this transaction has written already is not a mismatch: its seal is rewritten at the
// commit, and the row as last committed is checked against its old seal then (the pre-image
// check). Those are told apart only when a row mismatches — the notes are read then, not
// for every read — so an honest read costs one statement and an HMAC a row.

import (
	"crypto/hmac"
	"fmt"
	"strings"
)

// checkRead checks the rows of table that where selects (a WHERE clause over its bare column
// names, with args) against their seals.
func (t *Tx) checkRead(table, where string, args ...any) error {
	_, err := t.checkRows(table, where, false, args...)
	return err
}

// checkReadAll is checkRead for a read of every row of table whose key begins with lead (a
// round's slips, its settlements: the key's first column = ?), and it also refuses a row gone
// from it: a seal of a key beginning with lead whose row the read did not find was deleted
// without the server's key — one seat's settlement gone, so a correction settles that seat as
// if it had none and pays it again — unless this transaction deleted it (its seal notes).
// The seals are found by their key's text, quote(lead)||',' and on, a range of the seal's own
// index (on PostgreSQL its byte-ordered one, seal_rows_prefix): one more statement a read.
func (t *Tx) checkReadAll(table, leadCol string, lead any) error {
	seen, err := t.checkRows(table, quoteIdent(leadCol)+" = ?", true, lead)
	if err != nil || t.l.seal == nil {
		return err
	}
	st := t.l.seal.byName[table]
	q := `SELECT pk FROM ` + st.scope.t("seal_rows") + ` WHERE tbl = ? AND pk >= quote(?)||',' AND pk < quote(?)||'-'`
	if t.l.dialect == dialectPostgres {
		// ~>=~ and ~<~ compare bytes whatever the database's collation (under most, keys
		// beginning with one text are not one range of the text order).
		q = `SELECT pk FROM ` + st.scope.t("seal_rows") + ` WHERE tbl = ? AND pk ~>=~ (quote_literal(CAST(? AS text))||',') AND pk ~<~ (quote_literal(CAST(? AS text))||'-')`
	}
	sealedKeys, err := names(t.ctx, t.tx, q, table, lead, lead)
	if err != nil {
		return fmt.Errorf("ledger: read check of %s: %w", table, err)
	}
	var gone []string
	for _, k := range sealedKeys {
		if !seen[k] {
			gone = append(gone, k)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	mine, err := t.ownNotes(st.scope, table)
	if err != nil {
		return err
	}
	for _, k := range gone {
		if !mine[k] {
			return fmt.Errorf("ledger: %w: table %s row %s is sealed but missing at the read: deleted without the server's key; the decision that read it is refused", ErrTampered, table, k)
		}
	}
	return nil
}

// checkRows is checkRead, and when keys is set it returns the keys of the rows it read.
func (t *Tx) checkRows(table, where string, keys bool, args ...any) (map[string]bool, error) {
	s := t.l.seal
	if s == nil {
		return nil, nil // sealAll's own transaction, before the seal is open
	}
	st, ok := s.byName[table]
	if !ok {
		return nil, fmt.Errorf("ledger: read check: table %s is not sealed", table)
	}
	sc := st.scope
	pk := st.pkOf("t")
	rows, err := t.query(`SELECT `+pk+`, t.*, (SELECT r.mac FROM `+sc.t("seal_rows")+` r WHERE r.tbl = `+quoteString(table)+
		` AND r.pk = `+pk+`) FROM `+st.from()+` t WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("ledger: read check of %s: %w", table, err)
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("ledger: read check of %s: %w", table, err)
	}
	cols := names[1 : len(names)-1]
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	m := sc.macer()
	type bad struct {
		pk     string
		sealed bool
		what   string
	}
	var bads []bad
	var seen map[string]bool
	if keys {
		seen = map[string]bool{}
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("ledger: read check of %s: %w", table, err)
		}
		key, _ := vals[0].(string)
		want, _ := vals[len(vals)-1].([]byte)
		mac, err := m.rowMAC(table, key, cols, vals[1:len(vals)-1])
		if err != nil {
			return nil, err
		}
		if keys {
			seen[key] = true
		}
		if want == nil || !hmac.Equal(mac, want) {
			bads = append(bads, bad{key, want != nil, describe(cols, vals[1:len(vals)-1])})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: read check of %s: %w", table, err)
	}
	rows.Close()
	if len(bads) == 0 {
		return seen, nil
	}
	mine, err := t.ownNotes(sc, table)
	if err != nil {
		return nil, err
	}
	for _, b := range bads {
		if mine[b.pk] {
			continue // written by this transaction: checked at its seal
		}
		if !b.sealed {
			return nil, fmt.Errorf("ledger: %w: table %s row %s has no seal at the read: written without the server's key (%s); the decision that read it is refused", ErrTampered, table, b.pk, b.what)
		}
		return nil, fmt.Errorf("ledger: %w: table %s row %s does not match its seal at the read: edited without the server's key (%s); the decision that read it is refused", ErrTampered, table, b.pk, b.what)
	}
	return seen, nil
}

// ownNotes are the keys of table's rows this transaction has written (its seal notes). On
// SQLite every note is the transaction's own (outsideWrites refuses any other as it begins).
func (t *Tx) ownNotes(sc *scope, table string) (map[string]bool, error) {
	q := `SELECT pk FROM seal_dirty WHERE tbl = ?`
	if t.l.dialect == dialectPostgres {
		q = `SELECT pk FROM ` + sc.t("seal_dirty") + ` WHERE tbl = ? AND tx = txid_current()`
	}
	keys, err := names(t.ctx, t.tx, q, table)
	if err != nil {
		return nil, fmt.Errorf("ledger: read check of %s: %w", table, err)
	}
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, nil
}

// pkOf is the text of the table's primary key over the columns of the row aliased alias.
func (st sealed) pkOf(alias string) string {
	if st.scope.schema != "" {
		return st.pkExpr(alias)
	}
	return strings.ReplaceAll(st.pk, "quote(", "quote("+alias+".")
}

// checkGone is called when a read by primary key (keys, in the key's column order) found no
// row of table: a seal for that key means the row was deleted without the server's key — a
// ticket's record gone, so it redeems again; an account gone, so it starts afresh — unless
// this transaction deleted it.
func (t *Tx) checkGone(table string, keys ...any) error {
	s := t.l.seal
	if s == nil {
		return nil
	}
	st, ok := s.byName[table]
	if !ok {
		return fmt.Errorf("ledger: read check: table %s is not sealed", table)
	}
	one := "quote(?)"
	if t.l.dialect == dialectPostgres {
		one = "quote_literal(CAST(? AS text))"
	}
	parts := make([]string, len(keys))
	for i := range keys {
		parts[i] = one
	}
	args := append([]any{table}, keys...)
	found, err := names(t.ctx, t.tx, `SELECT pk FROM `+st.scope.t("seal_rows")+` WHERE tbl = ? AND pk = `+strings.Join(parts, "||','||"), args...)
	if err != nil {
		return fmt.Errorf("ledger: read check of %s: %w", table, err)
	}
	if len(found) == 0 {
		return nil
	}
	mine, err := t.ownNotes(st.scope, table)
	if err != nil || mine[found[0]] {
		return err
	}
	return fmt.Errorf("ledger: %w: table %s row %s is sealed but missing at the read: deleted without the server's key; the decision that read it is refused", ErrTampered, table, found[0])
}
