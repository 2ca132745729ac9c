package server

// The table's log as its dealer reads it (issue 33, points 4 and 8): its own events and those
// another table of the floor wrote into it (the cage of T2 paying a ticket T1 printed tells
// T1), chosen by kind, terminal and time. A terminal id repeats across tables (T2 has a T01
// of its own), so every entry names the terminal's table: an event's terminal is this
// table's unless written qualified, "T1/T01" (qualified).

import (
	"context"
	"strings"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/server/ledger"
)

// qualified is terminal as an event of this table names it: as it is when it is this
// table's (or table is not known: a ticket from before tables were recorded), else
// "table/terminal".
func (t *Table) qualified(table, terminal string) string {
	if table == "" || table == t.cfg.TableID || terminal == "" {
		return terminal
	}
	return table + "/" + terminal
}

// auditEntryPB is a log entry as the console reads it: the terminal split from its table.
func auditEntryPB(e ledger.FloorEntry) *pb.AuditEntry {
	table, term := e.Table, e.Terminal
	if tb, tm, ok := strings.Cut(e.Terminal, "/"); ok {
		table, term = tb, tm
	}
	if term == "" {
		table = ""
	}
	return &pb.AuditEntry{Seq: e.Seq, AtUnixNanos: e.At.UnixNano(), Kind: e.Kind, TerminalId: term, RoundId: e.Round,
		Amount: e.Amount, Detail: e.Detail, Actor: e.Actor, TableId: table, FromTableId: e.From}
}

// AuditLogOf is GetAuditLog: the newest entries of the table's log that pass the request's
// filters, newest first.
func (t *Table) AuditLogOf(caller string, req *pb.GetAuditLogRequest) (*pb.GetAuditLogResponse, error) {
	n := int(req.Limit)
	if n < 0 || n > 1000 {
		return nil, invalid("limit %d: 0 to 1000", n)
	}
	if n == 0 {
		n = 50
	}
	since, until, err := reportWindow(req.SinceUnixNanos, req.UntilUnixNanos)
	if err != nil {
		return nil, err
	}
	f := ledger.LogFilter{Kind: req.Kind, Terminal: req.TerminalId, Since: since, Until: until}
	if strings.ContainsRune(f.Kind, 0) || strings.ContainsRune(f.Terminal, 0) {
		return nil, invalid("a kind or terminal holds a NUL byte")
	}
	// This table's terminal may be named qualified too: its events name it bare.
	if tb, tm, ok := strings.Cut(f.Terminal, "/"); ok && tb == t.cfg.TableID {
		f.Terminal = tm
	}
	evs, err := t.led.Log(context.Background(), f, n)
	if err != nil {
		return nil, ledgerErr(err)
	}
	res := &pb.GetAuditLogResponse{Caller: caller, Entries: make([]*pb.AuditEntry, len(evs))}
	for i, e := range evs {
		if e.Table == "" {
			e.Table = t.cfg.TableID
		}
		res.Entries[i] = auditEntryPB(e)
	}
	return res, nil
}

// tellIssuer writes into the log of the table that printed tk, when it is another of the
// floor, what became of its ticket here (ledger.FloorEvent), in the transaction that did it:
// the issuing table learns where, by whom and when. Its terminal is named as that table
// names it.
func (t *Table) tellIssuer(tx *ledger.Tx, tk ledger.Ticket, kind, what string, now time.Time) error {
	if tk.IssuerTable == "" || tk.IssuerTable == t.cfg.TableID {
		return nil
	}
	return tx.FloorEvent(tk.IssuerTable, kind, tk.Terminal, "", tk.Amount,
		tk.Validation+" (issued here by "+tk.Terminal+") "+what+" at "+now.UTC().Format(time.RFC3339))
}
