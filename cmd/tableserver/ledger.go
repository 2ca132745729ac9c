package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/tablegames/ats/server/ledger"
)

// runLedger is the offline ledger commands: verify (the seal, and the terminals' journal
// anchors listed for atsctl records verify -anchor), clear-anchor (a supervisor lets a
// terminal whose journal is lost for good start on a new one; recorded with who decided) and
// reseal (an operator seals a ledger found without its seal as it stands: the table server
// never does at a start; recorded with who, why and when, for good: ledger.Reseal).
func runLedger(cmd string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "table.db", "ledger: a SQLite file, or a floor's PostgreSQL database postgres://…")
	key := fs.String("ledger-key", "", "the ledger's seal key file (default: beside the ledger, DB.key; required with postgres://)")
	floorKey := fs.String("floor-key", "", "postgres://: the floor's key file (default: -ledger-key)")
	table := fs.String("table", "T1", "postgres://: the table id (its rows are in schema table_<id>)")
	terminal := fs.String("terminal", "", "clear-anchor: the terminal")
	by := fs.String("by", "", "clear-anchor, reseal: who decided (recorded in the ledger)")
	why := fs.String("why", "", "reseal: why the ledger is trusted as it stands (recorded in the ledger)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if _, err := os.Stat(*db); err != nil && !ledger.IsPostgres(*db) {
		fmt.Fprintln(stderr, "tableserver "+cmd+":", err) // never create an empty ledger by mistake
		return 1
	}
	if cmd == "clear-anchor" && (*terminal == "" || *by == "") {
		fmt.Fprintln(stderr, "tableserver clear-anchor: -terminal and -by are required")
		return 2
	}
	ctx := context.Background()
	if cmd == "reseal" {
		n, err := ledger.Reseal(ctx, ledger.StoreConfig{DSN: *db, TableID: *table, KeyPath: *key, FloorKeyPath: *floorKey}, *by, *why)
		if err != nil {
			fmt.Fprintln(stderr, "tableserver reseal:", err)
			return 1
		}
		fmt.Fprintf(stdout, "ledger re-sealed as it stands by %s: %d rows sealed; the mark stays in the ledger (verify lists it) and on the console's alarms\n", *by, n)
		return 0
	}
	// Verifies every row against its seal (on PostgreSQL the table's schema and the floor's).
	led, err := ledger.OpenStore(ctx, ledger.StoreConfig{DSN: *db, TableID: *table, KeyPath: *key, FloorKeyPath: *floorKey, MustExist: true})
	if err != nil {
		fmt.Fprintln(stderr, "tableserver "+cmd+":", err)
		return 1
	}
	defer led.Close()
	if cmd == "clear-anchor" {
		err := led.Update(ctx, time.Now(), func(tx *ledger.Tx) error {
			a, err := tx.Anchor(*terminal)
			if err != nil {
				return err
			}
			ok, err := tx.ClearAnchor(*terminal)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("terminal %s has no journal anchor", *terminal)
			}
			return tx.Event("journal-anchor-cleared", *terminal, "", a.Seq, "by "+*by)
		})
		if err != nil {
			fmt.Fprintln(stderr, "tableserver clear-anchor:", err)
			return 1
		}
		fmt.Fprintf(stdout, "journal anchor of %s cleared by %s\n", *terminal, *by)
		return 0
	}
	n, err := led.Verify(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "tableserver verify:", err)
		return 1
	}
	c, err := led.Conserve(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "tableserver verify:", err)
		return 1
	}
	fmt.Fprintf(stdout, "ledger verified: %d rows sealed, every one matches; conservation %s (%v)\n", n, map[bool]string{true: "holds", false: "FAILS"}[c.Holds()], c)
	marks, err := led.Reseals(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "tableserver verify:", err)
		return 1
	}
	for _, m := range marks {
		fmt.Fprintf(stdout, "RE-SEALED %s by %s: %s (%d rows; found %s)\n", m.At.UTC().Format(time.RFC3339), m.By, m.Why, m.Rows, m.Found)
	}
	if v, err := led.SchemaVersion(ctx); err == nil {
		fmt.Fprintf(stdout, "ledger store %s, schema version %d\n", led.Dialect(), v)
	}
	anchors, err := led.Anchors(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "tableserver verify:", err)
		return 1
	}
	for _, id := range slices.Sorted(maps.Keys(anchors)) {
		fmt.Fprintf(stdout, "journal anchor %s %d:%x\n", id, anchors[id].Seq, anchors[id].MAC)
	}
	if !c.Holds() {
		return 1
	}
	return 0
}
