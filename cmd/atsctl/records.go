package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/meters"
	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/recall"
)

func init() {
	register("records", command{
		summary: "read a terminal's journal: list, pending, meters, verify, export; resolve a lost note",
		run:     runRecords,
	})
}

const recordsUsage = `usage: atsctl records -journal PATH [-n N] <action>
  list          the last N records (default 50): seq, time, kind, key, amount, flow state
  pending       money flows not finished (what start-up recovery completes or reverses)
  meters        from the records: notes in by value, tickets in and out, dealer in and out,
                handpays, wagered, won, rounds played (an append-only chain: never backwards)
  rounds        last-game recall of the last N rounds (default 10): outcome, wagers, won,
                balance before and after, money in and out during the round
  show ROUND    one round's wagers, as accepted by the table, and its settlement
  verify        check the whole sealed chain (each record's HMAC under the terminal's key) and
                the flow table, and recompute every recorded settlement with the rules
                engine; with -anchor SEQ:MAC (the table server's anchor for this terminal, from
                tableserver verify) also that the journal still holds that record: records cut
                off its end, an older copy, a new journal are found. Exit 1 on the first
                disagreement
  export        every record as JSON
  resolve KEY in-box|not-in-box
                settle a note left unresolved (pending, state unresolved) from the count of
                the cash box: in-box, the player is owed it and the terminal asks the table
                for the credit when it starts; not-in-box, it went back to the player. Only
                with the terminal stopped; every other action reads a running terminal's
                journal without disturbing it`

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
	keyPath := fs.String("key", "", "the journal's key file (default: beside the journal, JOURNAL.key)")
	anchor := fs.String("anchor", "", "verify: the table server's anchor for this terminal, SEQ:HEXMAC")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *path == "" || fs.NArg() < 1 {
		fmt.Fprintln(stderr, recordsUsage)
		return 2
	}
	nargs, known := recordsActions[fs.Arg(0)]
	if !known {
		fmt.Fprintf(stderr, "atsctl records: unknown action %q\n%s\n", fs.Arg(0), recordsUsage)
		return 2
	}
	if fs.NArg() != nargs {
		fmt.Fprintln(stderr, recordsUsage)
		return 2
	}
	if _, err := os.Stat(*path); err != nil {
		fmt.Fprintln(stderr, "atsctl records:", err) // never create an empty journal by mistake
		return 1
	}
	ctx := context.Background()
	if fs.Arg(0) == "resolve" {
		return resolve(ctx, *path, *keyPath, fs.Arg(1), fs.Arg(2), stdout, stderr)
	}
	anchorSeq, anchorMAC, err := parseAnchor(*anchor)
	if err != nil {
		fmt.Fprintln(stderr, "atsctl records: -anchor:", err)
		return 2
	}
	// Reading takes no lock: the terminal may be running and appending.
	j, err := journal.OpenReadOnlyWith(*path, *keyPath) // verifies the whole chain
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
		if err := j.CheckAnchor(ctx, anchorSeq, anchorMAC); err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		rs, err := j.Records(ctx, 0, 0)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		rounds, err := recall.Rounds(ctx, j, 0)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		recomputed, skipped := 0, 0
		for _, r := range rounds {
			switch err := r.Verify(); {
			case errors.Is(err, recall.ErrLuckyBall) || errors.Is(err, recall.ErrSlipNotRecorded):
				fmt.Fprintf(stdout, "round %s not recomputed: %v\n", r.ID, err)
				skipped++
			case err != nil:
				fmt.Fprintln(stderr, "atsctl records:", err)
				return 1
			case r.Settled && r.Recognised:
				recomputed++
			}
		}
		seal := "sealed chain (HMAC-SHA256)"
		switch from := j.SealedFrom(); {
		case from == 0:
			seal = "hash chain (unsealed: written before the seal)"
		case from > 1:
			seal = fmt.Sprintf("hash chain to record %d, sealed chain (HMAC-SHA256) from record %d", from-1, from)
		}
		anchored := "no anchor given"
		if anchorSeq > 0 {
			anchored = fmt.Sprintf("holds the table's anchor (record %d)", anchorSeq)
		}
		fmt.Fprintf(stdout, "journal verified: %d records, %s and flows intact, %s; %d settlements recomputed by the rules engine agree (%d could not be recomputed)\n",
			len(rs), seal, anchored, recomputed, skipped)
		return 0
	case "rounds", "show":
		rounds, err := recall.Rounds(ctx, j, 0)
		if err != nil {
			fmt.Fprintln(stderr, "atsctl records:", err)
			return 1
		}
		if fs.Arg(0) == "show" {
			for _, r := range rounds {
				if r.ID == fs.Arg(1) {
					return showRound(stdout, stderr, r)
				}
			}
			fmt.Fprintf(stderr, "atsctl records: no round %s in the journal\n", fs.Arg(1))
			return 1
		}
		limit := 10
		if isSet(fs, "n") {
			limit = *n
		}
		fmt.Fprintf(stdout, "%-12s %-7s %6s %10s %10s %12s %12s %10s %10s\n", "round", "outcome", "wagers", "staked", "won", "before", "after", "in", "out")
		for i, r := range rounds {
			if i == limit {
				break
			}
			outcome := "-"
			if r.Settled {
				outcome = r.Number.String()
				if !r.Recognised {
					outcome = "void"
				}
				if r.Corrected {
					outcome += "*"
				}
			}
			fmt.Fprintf(stdout, "%-12s %-7s %6d %10s %10s %12s %12s %10s %10s\n", r.ID, outcome, len(r.Wagers),
				money.Decimal(r.Staked), money.Decimal(r.Returned), money.Decimal(r.BalanceBefore), money.Decimal(r.BalanceAfter), money.Decimal(r.MoneyIn), money.Decimal(r.MoneyOut))
		}
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
			m, err := meters.Read(ctx, j) // the same figures as the technician's meters page
			if err != nil {
				fmt.Fprintln(stderr, "atsctl records:", err)
				return 1
			}
			printMeters(stdout, m)
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
	// An action listed in recordsActions that the switch above does not handle.
	fmt.Fprintf(stderr, "atsctl records: unknown action %q\n%s\n", fs.Arg(0), recordsUsage)
	return 2
}

// recordsActions are the actions and how many arguments each takes, the action included.
var recordsActions = map[string]int{"list": 1, "pending": 1, "meters": 1, "rounds": 1, "show": 2, "verify": 1, "export": 1, "resolve": 3}

// resolve settles a note left unresolved from the attendant's count of the cash box. It opens
// the journal for writing, which the journal refuses while the terminal runs (the terminal
// keeps the chain head in memory, and its cashier could be moving the same flow).
func resolve(ctx context.Context, path, keyPath, key, count string, stdout, stderr io.Writer) int {
	var inBox bool
	switch count {
	case "in-box":
		inBox = true
	case "not-in-box":
	default:
		fmt.Fprintf(stderr, "atsctl records: resolve: %q is neither in-box nor not-in-box\n%s\n", count, recordsUsage)
		return 2
	}
	// Open, not OpenReadOnly: it fails with ErrInUse while the terminal runs, and verifies the
	// chain before anything is added to it.
	j, err := journal.OpenWith(path, journal.Options{Now: time.Now, Key: keyPath})
	if err != nil {
		fmt.Fprintln(stderr, "atsctl records: resolve:", err)
		return 1
	}
	defer j.Close()
	f, err := cashier.ResolveUnresolved(ctx, j, key, inBox)
	if err != nil {
		fmt.Fprintln(stderr, "atsctl records: resolve:", err)
		return 1
	}
	if inBox {
		fmt.Fprintf(stdout, "%s: in the cash box: %s owed to the player (flow %s, record %d); the terminal asks the table for the credit when it starts\n",
			f.Key, money.Decimal(f.Amount), f.State, f.Updated)
	} else {
		fmt.Fprintf(stdout, "%s: not in the cash box: %s went back to the player, nothing credited (flow %s, record %d)\n",
			f.Key, money.Decimal(f.Amount), f.State, f.Updated)
	}
	return 0
}

func printMeters(w io.Writer, m meters.Meters) {
	fmt.Fprintf(w, "notes in          %12d cents\n", m.NotesIn)
	for _, v := range m.NoteValues() {
		fmt.Fprintf(w, "  of %10d    %12d notes\n", v, m.Notes[v])
	}
	fmt.Fprintf(w, "tickets in        %12d cents in %d tickets\n", m.TicketsIn, m.TicketsInN)
	fmt.Fprintf(w, "tickets out       %12d cents in %d tickets\n", m.TicketsOut, m.TicketsOutN)
	fmt.Fprintf(w, "handpays          %12d cents in %d handpays\n", m.Handpays, m.HandpayN)
	fmt.Fprintf(w, "dealer in         %12d cents\n", m.DealerIn)
	fmt.Fprintf(w, "dealer out        %12d cents\n", m.DealerOut)
	fmt.Fprintf(w, "wagered           %12d cents\n", m.Wagered)
	fmt.Fprintf(w, "won               %12d cents (stakes returned included)\n", m.Won)
	fmt.Fprintf(w, "rounds played     %12d\n", m.Rounds)
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// showRound prints one round: each wager as the table accepted it, and the settlement.
func showRound(stdout, stderr io.Writer, r recall.Round) int {
	fmt.Fprintf(stdout, "round %s  (%s %s)  slip version %d\n", r.ID, r.Layout.Wheel, r.Layout.Profile, r.SlipVersion)
	bets, per, err := r.Bets()
	if err != nil {
		fmt.Fprintln(stderr, "atsctl records:", err)
		return 1
	}
	for i, b := range bets {
		card := ""
		if c := r.Wagers[i].Card; c != "" {
			card = ", player card " + c // 003 §3.4, §9.1
		}
		fmt.Fprintf(stdout, "  %-40s %10s per unit, %10s accepted (tried %s%s)\n", b, money.Decimal(per[i]), money.Decimal(r.Wagers[i].Accepted), money.Decimal(r.Wagers[i].Tried), card)
	}
	switch {
	case !r.Settled:
		fmt.Fprintln(stdout, "  not settled (yet)")
	case !r.Recognised:
		fmt.Fprintf(stdout, "  void: stakes %s returned\n", money.Decimal(r.Staked))
	default:
		corrected := ""
		if r.Corrected {
			corrected = " (after a correction)"
		}
		fmt.Fprintf(stdout, "  outcome %s %s%s: staked %s, won %s; balance %s -> %s; in %s, out %s during the round\n",
			r.Number, r.Number.Colour(), corrected, money.Decimal(r.Staked), money.Decimal(r.Returned), money.Decimal(r.BalanceBefore), money.Decimal(r.BalanceAfter),
			money.Decimal(r.MoneyIn), money.Decimal(r.MoneyOut))
	}
	return 0
}

// parseAnchor reads -anchor SEQ:HEXMAC; "" is no anchor.
func parseAnchor(s string) (int64, []byte, error) {
	if s == "" {
		return 0, nil, nil
	}
	seqText, macText, ok := strings.Cut(s, ":")
	seq, err := strconv.ParseInt(seqText, 10, 64)
	if !ok || err != nil || seq < 1 {
		return 0, nil, fmt.Errorf("%q: want SEQ:HEXMAC, SEQ a record number", s)
	}
	mac, err := hex.DecodeString(macText)
	if err != nil || len(mac) != 32 {
		return 0, nil, fmt.Errorf("%q: the MAC must be 64 hex digits", s)
	}
	return seq, mac, nil
}
