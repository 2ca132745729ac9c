package ledger

import (
	"fmt"
	"strings"
)

// The seal's batches on SQLite (sealScope): the same pgBatch, filled and written with
// statements of up to 256 rows (batches) — IN lists and VALUES rows, as SQLite has no arrays
// to unnest.

func order2[K any](keys []K, f func(K) [2]string) [][2]string {
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = f(k)
	}
	return out
}

// sqliteBatch takes the old seals of keys from the notes (dirtyRows read them with the notes,
// in one join) and reads the rows as they are now by the rowids the triggers noted (a row
// counts only under its own key, as its rowid may now hold another).
//
// Measured and not done: having the bulk writes return their rows (INSERT ... RETURNING) to
// spare this read-back. With modernc's SQLite a RETURNING statement cost more than the
// read-back it spared — a settlement of 1,000 terminals took 5 ms longer (BenchmarkSettleTx1000:
// rows 11.5 → 20.5 ms, seal 22.4 → 18.8 ms) — as SQLite buffers the returned rows and each
// still crosses into Go.
func (s *sealer) sqliteBatch(t *Tx, sc *scope, keys [][2]string, ds []dirty) (*pgBatch, error) {
	b := &pgBatch{sqlite: true, old: oldSeals(ds), rows: make(map[[2]string]rowNow, len(keys))}
	tables := tablesOf(ds)
	want := make(map[[2]string]bool, len(keys))
	for _, k := range keys {
		want[k] = true
	}
	for _, tbl := range tables {
		st, ok := s.byName[tbl]
		if !ok || st.scope != sc {
			return nil, fmt.Errorf("a write to table %s, which is not sealed", tbl)
		}
		// The table's noted rows by the rowids in the notes, joined in the database: bound
		// as IN lists, 256 rowids to a statement, the rowids were 2,000 arguments and eight
		// statements more for a settlement of 1,000 terminals.
		rows, err := t.query(`SELECT `+strings.ReplaceAll(st.pk, "quote(", "quote(t.")+`, t.* FROM `+st.from()+` t
			WHERE t.rowid IN (SELECT rid FROM seal_dirty WHERE tbl = ?)`, tbl)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			pk, cols, vals, err := scanSealed(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			if want[[2]string{tbl, pk}] {
				b.rows[[2]string{tbl, pk}] = rowNow{cols, vals}
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// writeSQLite writes the new seals and deletes the seals of rows gone.
func (b *pgBatch) writeSQLite(t *Tx, sc *scope) error {
	tbls, pks, macs := b.putTbl, b.putPK, b.putMAC
	for _, size := range batches(len(tbls)) {
		args := make([]any, 0, 3*size)
		for i := range size {
			args = append(args, tbls[i], pks[i], macs[i])
		}
		tbls, pks, macs = tbls[size:], pks[size:], macs[size:]
		if _, err := t.exec(`INSERT INTO `+sc.t("seal_rows")+`(tbl, pk, mac) VALUES `+valueList(size, "(?,?,?)")+`
			ON CONFLICT(tbl, pk) DO UPDATE SET mac = excluded.mac`, args...); err != nil {
			return err
		}
	}
	tbls, pks = b.goneTbl, b.gonePK
	for _, size := range batches(len(tbls)) {
		args := make([]any, 0, 2*size)
		for i := range size {
			args = append(args, tbls[i], pks[i])
		}
		tbls, pks = tbls[size:], pks[size:]
		if _, err := t.exec(`DELETE FROM `+sc.t("seal_rows")+` WHERE (tbl, pk) IN (VALUES `+valueList(size, "(?,?)")+`)`, args...); err != nil {
			return err
		}
	}
	return nil
}
