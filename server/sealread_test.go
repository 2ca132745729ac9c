package server

import (
	"database/sql"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

// Attack (issue 34, finding 2, as the lab made it): with write access to the ledger of a
// running table, an editor raises the wagers of an earlier, settled round's slip — a row the
// server only reads — and deletes the seal's notes of the change. A supervisor then corrects
// that round: before, the correction paid on the forged slip (the lab's 104.00 balance became
// 970.00). Now the slip is checked against its seal as the correction reads it: the correction
// is refused (DataLoss), no balance moves, and an alarm names who asked and the row.
func TestAttackEarlierSlipForgedThenCorrectedRefused(t *testing.T) {
	bothStores(t, func(t *testing.T, r *rig) {
		t1 := r.terminal("T1")
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		if _, err := creditNotes(ctx, t1, "n", 5000); err != nil {
			t.Fatal(err)
		}
		// 1000 on red, 2 (black) came: 4000 left. Honestly corrected to 1 (red), T1 has 6000.
		first := r.playRound(t, "2", map[pb.TerminalServiceClient][]*pb.Wager{t1: {{Kind: pb.BetKind_BET_KIND_RED, Amount: 1000}}})
		r.playRound(t, "0", nil)
		// The forger raises the wager tenfold in the settled slip and deletes the notes.
		r.editLedger(t, forgeSlip(r, first, "T1"))
		_, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: first, Number: "1"})
		if status.Code(err) != codes.DataLoss || !strings.Contains(err.Error(), "table slips row ") {
			st, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
			t.Fatalf("the correction on a forged slip: %v (T1's balance now %d, honest 6000)", err, termBalance(st, "T1"))
		}
		t.Logf("refused: %v", err)
		if st, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); termBalance(st, "T1") != 4000 {
			t.Fatalf("T1's balance moved after the refusal: %d", termBalance(st, "T1"))
		}
		al, err := r.dealer.ListAlarms(ctx, &pb.ListAlarmsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range al.Alarms {
			found = found || (a.Kind == AlarmLedgerTampered && strings.Contains(a.Detail, "supervisor:S1") && strings.Contains(a.Detail, "slips"))
		}
		if !found {
			t.Fatalf("no alarm naming who asked and the row: %v", al.Alarms)
		}
	})
}

// Attack (issue 34, the last gap of finding 2): an editor deletes one seat's settlement of a
// settled round, and the seal's note of the deletion, from a running table's ledger. A
// supervisor then corrects that round: before, the correction found no settlement of that seat
// to reverse and settled it afresh — paid its win a second time. Now the round's settlements
// are compared with their seals as the correction reads them: the correction is refused
// (DataLoss), no balance moves, and an alarm names who asked and the row.
func TestAttackSettlementDeletedThenCorrectedRefused(t *testing.T) {
	bothStores(t, func(t *testing.T, r *rig) {
		t1, t2 := r.terminal("T1"), r.terminal("T2")
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		for _, c := range []pb.TerminalServiceClient{t1, t2} {
			if _, err := creditNotes(ctx, c, "n", 5000); err != nil {
				t.Fatal(err)
			}
		}
		// T1 1000 on red, T2 1000 on low; 2 (black, low) came: T1 has 4000, T2 6000. Corrected
		// honestly to 1 (red, low), T1 has 6000 and T2 still 6000: its win is reversed and paid
		// once. With its settlement gone, T2 was paid again (7000: the lab would see 1000 too much).
		first := r.playRound(t, "2", map[pb.TerminalServiceClient][]*pb.Wager{
			t1: {{Kind: pb.BetKind_BET_KIND_RED, Amount: 1000}},
			t2: {{Kind: pb.BetKind_BET_KIND_LOW, Amount: 1000}},
		})
		r.playRound(t, "0", nil)
		r.editLedger(t, []string{`DELETE FROM settlements WHERE round = '` + first + `' AND terminal = 'T2'`, `DELETE FROM seal_dirty`})
		_, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: first, Number: "1"})
		st, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
		if status.Code(err) != codes.DataLoss || !strings.Contains(err.Error(), "table settlements row ") {
			t.Fatalf("the correction with a settlement deleted: %v (T1 %d, T2 %d; honest 6000, 6000)", err, termBalance(st, "T1"), termBalance(st, "T2"))
		}
		t.Logf("refused: %v", err)
		if termBalance(st, "T1") != 4000 || termBalance(st, "T2") != 6000 {
			t.Fatalf("balances moved after the refusal: T1 %d, T2 %d, want 4000, 6000", termBalance(st, "T1"), termBalance(st, "T2"))
		}
		al, err := r.dealer.ListAlarms(ctx, &pb.ListAlarmsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range al.Alarms {
			found = found || (a.Kind == AlarmLedgerTampered && strings.Contains(a.Detail, "supervisor:S1") && strings.Contains(a.Detail, "settlements"))
		}
		if !found {
			t.Fatalf("no alarm naming who asked and the row: %v", al.Alarms)
		}
	})
}

// forgeSlip is the edit: the slip's wagers raised tenfold (1000 → 10000), the seal's notes of
// it deleted.
func forgeSlip(r *rig, round, terminal string) []string {
	if ledger.IsPostgres(r.dbPath) {
		return []string{`UPDATE slips SET wagers = convert_to(replace(convert_from(wagers, 'UTF8'), '1000', '10000'), 'UTF8')
			WHERE round = '` + round + `' AND terminal = '` + terminal + `'`, `DELETE FROM seal_dirty`}
	}
	return []string{`UPDATE slips SET wagers = CAST(replace(CAST(wagers AS TEXT), '1000', '10000') AS BLOB)
		WHERE round = '` + round + `' AND terminal = '` + terminal + `'`, `DELETE FROM seal_dirty`}
}

// editLedger runs stmts on the running table's ledger behind its back: sqlite3 on the file,
// psql on the table's schema.
func (r *rig) editLedger(t *testing.T, stmts []string) {
	t.Helper()
	driver, dsn := "sqlite", "file:"+r.dbPath+"?_pragma=busy_timeout(5000)"
	if ledger.IsPostgres(r.dbPath) {
		driver, dsn = "pgx", r.dbPath
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if driver == "pgx" {
		if _, err := db.Exec(`SET search_path = ` + ledger.SchemaOf(r.table.cfg.TableID) + `, ` + ledger.FloorSchema); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range stmts {
		res, err := db.Exec(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n, _ := res.RowsAffected(); n == 0 && strings.HasPrefix(q, "UPDATE") {
			t.Fatalf("%s: no row", q)
		}
	}
}
