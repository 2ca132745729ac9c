package main

// Planted faults in the records (-kill tamper): at each kill point the harness kills the
// terminal, edits its journal or the server's ledger as someone with the files (and without
// the keys) would, restarts, and requires the edit to be caught — the terminal refusing to
// start, or refusing money against the server's anchor, or the server refusing its ledger, or
// the server refusing a forged claim. Then it puts the files back as they were and carries on;
// the books at the end check that nothing the edits tried was paid.
//
// The faults, in turn:
//
//	delete-tail    records the server acknowledged cut off the journal's end
//	edit-rechain   a money record's amount raised and the SHA-256 chain recomputed
//	rollback       the journal put back to the copy saved at an earlier kill point
//	forge          a 10,000.00 credit owed inserted (SHA-256 chained, no key)
//	forge-keyed    the same with the terminal's key, as if it leaked: the server has no
//	               record of that note in escrow and pays nothing
//	ledger-raise   a balance raised in the ledger, money in raised to match
//
// A fault is only planted where it can be seen: a cut or a rollback that loses only records
// the server never acknowledged is what a crash leaves, and recovery's idempotent calls make
// it harmless — so the harness waits for the anchor to be past the records it takes away.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/server/ledger"
)

var tamperFaults = []string{"delete-tail", "edit-rechain", "rollback", "forge", "forge-keyed", "ledger-raise"}

// snapshot is a copy of a SQLite file with its WAL and shared-memory files.
type snapshot map[string][]byte

func takeSnapshot(path string) (snapshot, error) {
	s := snapshot{}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(path + suffix)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		s[suffix] = b
	}
	return s, nil
}

func (s snapshot) restore(path string) error {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if b, ok := s[suffix]; ok {
			if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
				return err
			}
		} else if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// anchorSeq reads the server's anchor for the terminal straight from the ledger file (read
// only: the server is running).
func (h *harness) anchorSeq() int64 {
	db, err := sql.Open("sqlite", "file:"+ledgerPath(h.dir)+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return 0
	}
	defer db.Close()
	var seq int64
	db.QueryRow(`SELECT seq FROM journal_anchors WHERE terminal = ?`, terminalID).Scan(&seq)
	return seq
}

func execSQL(path string, stmts ...string) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// tamper is one kill point of the planted-fault mode.
func (h *harness) tamper(i int) error {
	fault := tamperFaults[i%len(tamperFaults)]
	point := h.await(terminalTargets)
	jpath := journalPath(h.dir)
	if fault == "rollback" || fault == "delete-tail" {
		// Let money move past the older copy (or the records to be cut) first.
		before := h.anchorSeq()
		if fault == "rollback" {
			h.term.kill()
			old, err := takeSnapshot(jpath)
			if err != nil {
				return err
			}
			h.rollbackFrom = old
			h.rollbackHead = headOf(jpath)
			if err := h.startTerminal(); err != nil {
				return err
			}
		}
		deadline := time.Now().Add(20 * time.Second)
		for h.anchorSeq() <= max(before, h.rollbackHead) && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if h.anchorSeq() <= max(before, h.rollbackHead) {
			return fmt.Errorf("planted %s: no money moved in 20 s", fault)
		}
	}
	// From here until the files are put back nothing may move money: no notes from the player,
	// no bot at the checked terminal (-idle), or the table's anchor would pass the journal put
	// back.
	h.setQuiet(true)
	defer h.setQuiet(false)
	h.term.kill()
	if err := h.settleEscrow(jpath); err != nil {
		return err
	}
	if fault == "ledger-raise" {
		h.server.kill()
	}
	pristine, err := takeSnapshot(jpath)
	if err != nil {
		return err
	}
	ledgerPristine, err := takeSnapshot(ledgerPath(h.dir))
	if err != nil {
		return err
	}
	var caught string
	switch fault {
	case "delete-tail":
		anchor := h.anchorSeq()
		if err := execSQL(jpath, fmt.Sprintf(`DELETE FROM records WHERE seq >= %d`, anchor-1),
			fmt.Sprintf(`DELETE FROM flows WHERE opened >= %d`, anchor-1),
			// The flows left stand as their last remaining record says, as a careful editor
			// would leave them: an edit the journal's own replay already sees as corrupt would
			// prove less than the anchor's refusal this fault is here for.
			fmt.Sprintf(`UPDATE flows SET
				state = (SELECT flow FROM records r WHERE r.key = flows.key AND r.flow <> '' ORDER BY seq DESC LIMIT 1),
				updated = (SELECT MAX(seq) FROM records r WHERE r.key = flows.key AND r.flow <> '')
				WHERE updated >= %d`, anchor-1)); err != nil {
			return err
		}
		// "records 5–6 deleted", or "the terminal's records are missing" when the cut takes them all.
		caught, err = h.expectTerminalRefusal("refused", "acknowledged record")
	case "edit-rechain":
		if err := rechainEdited(jpath); err != nil {
			return err
		}
		caught, err = h.expectTerminalRefusal("exit", "MAC")
	case "rollback":
		if err := h.rollbackFrom.restore(jpath); err != nil {
			return err
		}
		caught, err = h.expectTerminalRefusal("refused", "older copy")
	case "forge":
		if err := forgeUnkeyed(jpath); err != nil {
			return err
		}
		caught, err = h.expectTerminalRefusal("exit", "MAC")
	case "forge-keyed":
		if err := forgeKeyed(jpath); err != nil {
			return err
		}
		caught, err = h.expectTerminalRefusal("rec credit-refused", "")
	case "ledger-raise":
		if err := execSQL(ledgerPath(h.dir), `UPDATE accounts SET balance = balance + 1000000`,
			`UPDATE meters SET value = value + 1000000 WHERE name = 'money_in'`); err != nil {
			return err
		}
		caught, err = h.expectServerRefusal()
	}
	if err != nil {
		return fmt.Errorf("planted fault %s (after %s) not caught: %w", fault, point, err)
	}
	h.points[fmt.Sprintf("planted %s after %s: caught (%s)", fault, point, caught)]++
	// Put the files back and carry on.
	if h.term != nil {
		h.term.kill()
	}
	if err := pristine.restore(jpath); err != nil {
		return err
	}
	if fault == "ledger-raise" {
		if err := ledgerPristine.restore(ledgerPath(h.dir)); err != nil {
			return err
		}
		if err := h.startServer(); err != nil {
			return err
		}
	} else if h.anchorSeq() > headOf(jpath) {
		// The check's start-up recovery finished flows that the journal put back still holds
		// open (a note that was stacking at the kill), so the table anchored records that
		// journal no longer has. A supervisor clears the anchor after putting a journal back;
		// the next start asks again with the same keys, and the table answers the same, once.
		h.server.kill()
		if err := clearAnchor(ledgerPath(h.dir)); err != nil {
			return err
		}
		if err := h.startServer(); err != nil {
			return err
		}
	}
	return h.startTerminal()
}

// clearAnchor clears the terminal's journal anchor in the (stopped) table's ledger, as
// `tableserver clear-anchor` does.
func clearAnchor(path string) error {
	led, err := ledger.Open(path)
	if err != nil {
		return err
	}
	defer led.Close()
	return led.Update(context.Background(), time.Now(), func(tx *ledger.Tx) error {
		a, err := tx.Anchor(terminalID)
		if err != nil {
			return err
		}
		if _, err := tx.ClearAnchor(terminalID); err != nil {
			return err
		}
		return tx.Event("journal-anchor-cleared", terminalID, "", a.Seq, "by the crash harness, after putting back a checked journal")
	})
}

// expectTerminalRefusal starts the terminal on the planted journal and waits for it to say
// want ("refused": it refused money; "exit": it would not start; or a record it writes),
// with detail in what it said.
func (h *harness) expectTerminalRefusal(want, detail string) (string, error) {
	c, err := h.spawn("terminal", h.childArgs("terminal", "-addr", h.termAddr, "-acceptor", h.ap.Path,
		"-printer", h.pp.Path, "-seed", fmt.Sprint(h.rng.Uint64()), "-idle")...)
	if err != nil {
		return "", err
	}
	h.term = c
	deadline := time.After(30 * time.Second)
	for {
		select {
		case line := <-c.lines:
			switch {
			case want != "exit" && strings.HasPrefix(line, want) && strings.Contains(line, detail):
				return line, nil
			case strings.HasPrefix(line, "recovered") && want == "refused":
				return "", fmt.Errorf("the terminal recovered and took money")
			}
		case <-c.exited:
			tail := c.tail()
			if want == "exit" && strings.Contains(tail, detail) {
				return lastLine(tail), nil
			}
			return "", fmt.Errorf("the terminal exited: %s", tail)
		case <-deadline:
			return "", fmt.Errorf("nothing said within 30 s: %s", c.tail())
		}
	}
}

func (h *harness) expectServerRefusal() (string, error) {
	c, err := h.spawn("server", h.childArgs("server", "-listen", h.srvAddr)...)
	if err != nil {
		return "", err
	}
	if !c.wait(30 * time.Second) {
		c.kill()
		return "", errors.New("the table server started on an edited ledger")
	}
	if tail := c.tail(); !strings.Contains(tail, "ledger tampered with") {
		return "", fmt.Errorf("the table server exited, but not for the seal: %s", tail)
	}
	return lastLine(c.tail()), nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// settleEscrow lets the terminal finish a note or ticket it killed with in the acceptor's
// escrow before a fault is planted. Otherwise the terminal's run on the planted journal would
// stack that note and, when the journal is put back, the copy put back would still say it was
// in escrow: its start would find the escrow empty and take the note as returned. That is
// money lost to the harness's own putting back of an older journal (which the table's anchor
// refuses, and the harness clears as a supervisor would), not to anything the terminal did:
// with the player held (quiet), the terminal is started once more and killed when its journal
// holds no money in escrow.
//
// The same goes for a note the journal has not heard of yet: drawn in (or waiting at the
// mouth) when the terminal was killed. The terminal started on the planted journal would take
// it, and its records would go with that journal when the harness puts the pristine one back:
// a note in the cash box that no journal credited.
func (h *harness) settleEscrow(jpath string) error {
	unsettled := func() bool { return escrowFlows(jpath) > 0 || h.acc.Busy() }
	if !unsettled() {
		return nil
	}
	if err := h.startTerminal(); err != nil {
		return err
	}
	deadline := time.Now().Add(20 * time.Second)
	for unsettled() && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	h.term.kill()
	if n := escrowFlows(jpath); n > 0 || h.acc.Busy() {
		return fmt.Errorf("planting a fault: after 20 s the terminal still holds %d notes or tickets in escrow (the acceptor busy: %v)", n, h.acc.Busy())
	}
	return nil
}

// escrowFlows counts the journal's flows of a note or ticket in the acceptor's escrow.
func escrowFlows(path string) int {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return 0
	}
	defer db.Close()
	var n int
	db.QueryRow(`SELECT COUNT(*) FROM flows WHERE state IN (?, ?)`, string(cashier.Stacking), string(cashier.Redeeming)).Scan(&n)
	return n
}

func headOf(path string) int64 {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return 0
	}
	defer db.Close()
	var seq int64
	db.QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM records`).Scan(&seq)
	return seq
}

// rechainEdited raises the amount of the newest money record and recomputes the chain as a
// SHA-256 chain: what an editor without the key can do.
func rechainEdited(path string) error {
	return rewriteSHA(path, func(rs []journal.Record) []journal.Record {
		for i := len(rs) - 1; i >= 0; i-- {
			if rs[i].Amount > 0 {
				rs[i].Amount += 1_000_000
				break
			}
		}
		return rs
	})
}

// forgeUnkeyed adds a 10,000.00 credit owed, chained with SHA-256 (no key).
func forgeUnkeyed(path string) error {
	return rewriteSHA(path, func(rs []journal.Record) []journal.Record {
		at := time.Now().UTC()
		return append(rs,
			journal.Record{At: at, Kind: "note-escrow", Key: "note:0F:forged", Amount: 1_000_000, Flow: cashier.Stacking},
			journal.Record{At: at, Kind: "credit-point", Key: "note:0F:forged", Flow: cashier.CreditDue})
	})
}

// forgeKeyed adds the same credit owed with the terminal's own key, as if it had leaked.
func forgeKeyed(path string) error {
	j, err := journal.Open(path, nil)
	if err != nil {
		return err
	}
	defer j.Close()
	key := fmt.Sprintf("note:0F:forged%x", bytes.Repeat([]byte{byte(time.Now().UnixNano())}, 4))
	for _, r := range []journal.Record{
		{Kind: "note-escrow", Key: key, Amount: 1_000_000, Flow: cashier.Stacking},
		{Kind: "credit-point", Key: key, Flow: cashier.CreditDue},
	} {
		if _, err := j.Append(context.Background(), r); err != nil {
			return err
		}
	}
	return nil
}

// rewriteSHA reads every record, lets edit change them, and writes them back renumbered with a
// recomputed SHA-256 chain and a flow table to match — the most an editor without the key can
// do. (The chain function is the journal's pre-seal one, written out here on purpose: the
// journal package offers no way to forge its records.)
func rewriteSHA(path string, edit func([]journal.Record) []journal.Record) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT seq, at, kind, key, round, amount, body, flow FROM records ORDER BY seq`)
	if err != nil {
		return err
	}
	var rs []journal.Record
	for rows.Next() {
		var r journal.Record
		var at int64
		var flow string
		if err := rows.Scan(&r.Seq, &at, &r.Kind, &r.Key, &r.Round, &r.Amount, &r.Body, &flow); err != nil {
			rows.Close()
			return err
		}
		r.At, r.Flow = time.Unix(0, at).UTC(), journal.FlowState(flow)
		rs = append(rs, r)
	}
	rows.Close()
	rs = edit(rs)
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	for _, q := range []string{`DELETE FROM records`, `DELETE FROM flows`} {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	var prev [32]byte
	for i := range rs {
		r := &rs[i]
		r.Seq = int64(i + 1)
		if r.Body == nil {
			r.Body = []byte{}
		}
		prev = shaChain(prev, r)
		if _, err := tx.Exec(`INSERT INTO records(seq, at, kind, key, round, amount, body, flow, hash) VALUES (?,?,?,?,?,?,?,?,?)`,
			r.Seq, r.At.UnixNano(), r.Kind, r.Key, r.Round, r.Amount, r.Body, string(r.Flow), prev[:]); err != nil {
			return err
		}
		if r.Flow != "" {
			if _, err := tx.Exec(`INSERT INTO flows(key, kind, state, amount, opened, updated) VALUES (?,?,?,?,?,?)
				ON CONFLICT(key) DO UPDATE SET state = excluded.state, updated = excluded.updated`,
				r.Key, r.Kind, string(r.Flow), r.Amount, r.Seq, r.Seq); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

func shaChain(prev [32]byte, r *journal.Record) [32]byte {
	h := sha256.New()
	h.Write(prev[:])
	var n [8]byte
	putInt := func(v int64) { binary.BigEndian.PutUint64(n[:], uint64(v)); h.Write(n[:]) }
	putBytes := func(b []byte) { putInt(int64(len(b))); h.Write(b) }
	putInt(r.Seq)
	putInt(r.At.UnixNano())
	putBytes([]byte(r.Kind))
	putBytes([]byte(r.Key))
	putBytes([]byte(r.Round))
	putInt(r.Amount)
	putBytes(r.Body)
	putBytes([]byte(r.Flow))
	var out [32]byte
	h.Sum(out[:0])
	return out
}
