package ledger

import "fmt"

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

// sqliteBatch reads the old seals of keys and the rows as they are now (by the rowids the
// triggers noted, dirtyOf(tbl, pk); a row counts only under its own key, as its rowid may now
// hold another).
func (s *sealer) sqliteBatch(t *Tx, sc *scope, keys [][2]string, dirtyOf func(tbl, pk string) []dirty) (*pgBatch, error) {
	b := &pgBatch{sqlite: true, old: map[[2]string][]byte{}, rows: map[[2]string]rowNow{}}
	pks := map[string][]string{}
	rids := map[string][]int64{}
	want := map[[2]string]bool{}
	var tables []string
	for _, k := range keys {
		if _, ok := pks[k[0]]; !ok {
			tables = append(tables, k[0])
		}
		pks[k[0]] = append(pks[k[0]], k[1])
		want[k] = true
		for _, d := range dirtyOf(k[0], k[1]) {
			rids[k[0]] = append(rids[k[0]], d.rid)
		}
	}
	for _, tbl := range tables {
		st, ok := s.byName[tbl]
		if !ok || st.scope != sc {
			return nil, fmt.Errorf("a write to table %s, which is not sealed", tbl)
		}
		rest := pks[tbl]
		for _, size := range batches(len(rest)) {
			args := []any{tbl}
			for _, pk := range rest[:size] {
				args = append(args, pk)
			}
			rest = rest[size:]
			if err := b.scanOld(t.query(`SELECT tbl, pk, mac FROM `+sc.t("seal_rows")+` WHERE tbl = ? AND pk IN (`+valueList(size, "?")+`)`, args...)); err != nil {
				return nil, err
			}
		}
		ids := rids[tbl]
		for _, size := range batches(len(ids)) {
			args := make([]any, size)
			for i, id := range ids[:size] {
				args[i] = id
			}
			ids = ids[size:]
			rows, err := t.query(`SELECT `+st.pk+`, * FROM `+st.from()+` WHERE rowid IN (`+valueList(size, "?")+`)`, args...)
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
	}
	return b, nil
}

func (b *pgBatch) scanOld(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}, err error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var tbl, pk string
		var mac []byte
		if err := rows.Scan(&tbl, &pk, &mac); err != nil {
			return err
		}
		b.old[[2]string{tbl, pk}] = mac
	}
	return rows.Err()
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
