package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/tablegames/ats/app/journal"
)

func init() {
	register("records", command{
		summary: "read a terminal's journal: list, pending, meters, verify, export",
		run:     runRecords,
	})
}

const recordsUsage = `usage: atsctl records -journal PATH [-n N] <action>
  list          the last N records (default 50): seq, time, kind, key, amount, flow state
  pending       money flows not finished (what start-up recovery completes or reverses)
  meters        money in and out from the records: notes by value, tickets in and out, handpays
  verify        check the whole hash chain and the flow table; exit 1 on the first bad record
  export        every record as JSON`

type recordJSON struct {
	Seq    int64  `json:"seq"`
	At     string `json:"at"`
	Kind   string `json:"kind"`
	Key    string `json:"key,omitempty"`
	Round  string `json:"round,omitempty"`
	Amount int64  `json:"amount"`
	Flow   string `json:"flow,omitempty"`
	Body   string `json:"body,omitempty"`
	Hash   string `json:"hash"`
}

func runRecords(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("records", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("journal", "", "the terminal journal (SQLite file)")
	n := fs.Int("n", 50, "list: how many records")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *path == "" || fs.NArg() != 1 {
		fmt.Fprintln(stderr, recordsUsage)
		return 2
	}
	if _, err := os.Stat(*path); err != nil {
		fmt.Fprintln(stderr, "atsctl records:", err) // never create an empty journal by mistake
		return 1
	}
	ctx := context.Background()
	j, err := journal.Open(*path, time.Now) // verifies the whole chain
	if err != nil {
		fmt.Fprintln(stderr, "atsctl records: journal does not verify:", err)
		return 1
	}
	defer j.Close()
	switch fs.Arg(0) {
	case "verify":
		if err := j.Verify(ctx); err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		rs, err := j.Records(ctx, 0, 0)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		fmt.Fprintf(stdout, "journal verified: %d records, hash chain and flows intact\n", len(rs))
		return 0
	case "list", "export", "meters":
		rs, err := j.Records(ctx, 0, 0)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		switch fs.Arg(0) {
		case "list":
			if len(rs) > *n {
				rs = rs[len(rs)-*n:]
			}
			for _, r := range rs {
				fmt.Fprintf(stdout, "%6d %s %-26s %-40s %10d %s\n", r.Seq, r.At.Format(time.RFC3339), r.Kind, r.Key, r.Amount, r.Flow)
			}
		case "export":
			out := make([]recordJSON, 0, len(rs))
			for _, r := range rs {
				out = append(out, recordJSON{Seq: r.Seq, At: r.At.Format(time.RFC3339Nano), Kind: r.Kind, Key: r.Key,
					Round: r.Round, Amount: r.Amount, Flow: string(r.Flow), Body: string(r.Body), Hash: fmt.Sprintf("%x", r.Hash)})
			}
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(out); err != nil {
				fmt.Fprintln(stderr, "atsctl records:", err)
				return 1
			}
		case "meters":
			printMeters(stdout, meters(rs))
		}
		return 0
	case "pending":
		fl, err := j.Pending(ctx)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		for _, f := range fl {
			fmt.Fprintf(stdout, "%-40s %-16s %-12s %10d opened at record %d\n", f.Key, f.Kind, f.State, f.Amount, f.Opened)
		}
		if len(fl) == 0 {
			fmt.Fprintln(stdout, "no money flow in progress")
		}
		return 0
	}
	fmt.Fprintf(stderr, "atsctl records: unknown action %q\n%s\n", fs.Arg(0), recordsUsage)
	return 2
}

// meterSet is what the records say went in and out (the cashier's record kinds).
type meterSet struct {
	notes                 map[int64]int // by value in cents: count
	notesIn, ticketsIn    int64
	ticketsInN            int
	ticketsOut, handpays  int64
	ticketsOutN, handpayN int
}

func meters(rs []journal.Record) meterSet {
	m := meterSet{notes: map[int64]int{}}
	for _, r := range rs {
		kind, _, _ := strings.Cut(r.Key, ":")
		switch r.Kind {
		case "credited":
			switch kind {
			case "note":
				m.notes[r.Amount]++
				m.notesIn += r.Amount
			case "ticket":
				m.ticketsIn += r.Amount
				m.ticketsInN++
			}
		case "ticket-confirmed":
			m.ticketsOut += r.Amount
			m.ticketsOutN++
		case "handpay":
			m.handpays += r.Amount
			m.handpayN++
		}
	}
	return m
}

func printMeters(w io.Writer, m meterSet) {
	values := make([]int64, 0, len(m.notes))
	for v := range m.notes {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool { return values[i] < values[j] })
	fmt.Fprintf(w, "notes in          %12d cents\n", m.notesIn)
	for _, v := range values {
		fmt.Fprintf(w, "  of %10d    %12d notes\n", v, m.notes[v])
	}
	fmt.Fprintf(w, "tickets in        %12d cents in %d tickets\n", m.ticketsIn, m.ticketsInN)
	fmt.Fprintf(w, "tickets out       %12d cents in %d tickets\n", m.ticketsOut, m.ticketsOutN)
	fmt.Fprintf(w, "handpays          %12d cents in %d handpays\n", m.handpays, m.handpayN)
}
