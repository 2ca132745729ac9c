package cashier_test

import (
	"context"
	"testing"

	"github.com/tablegames/ats/server"
)

// A ticket's amount is printed as the screen shows it and said in words in the table's own
// currency (issue 32 point 11), in bytes a ticket printer's resident font prints: at a euro
// table "EUR 20.00" (a TCL printer's fonts have no €, which UTF-8 sends as three bytes the
// ticket would show as garbage) and "TWENTY EUROS AND ZERO CENTS", not DOLLARS; at a yuan table
// YUAN and FEN. Read from the fields the printer emulator parsed out of the bytes it was sent.
func TestTicketSaysTheTablesCurrencyInBytesThePrinterPrints(t *testing.T) {
	for _, c := range []struct{ currency, figures, words string }{
		{"AUD", "A$20.00", "TWENTY DOLLARS AND ZERO CENTS"},
		{"EUR", "EUR 20.00", "TWENTY EUROS AND ZERO CENTS"},
		{"CNY", "CNY 20.00", "TWENTY YUAN AND ZERO FEN"},
		{"GBP", "GBP 20.00", "TWENTY POUNDS AND ZERO PENCE"},
	} {
		t.Run(c.currency, func(t *testing.T) {
			r := newRigConfig(t, false, func(cfg *server.Config) { cfg.Currency = c.currency })
			if err := r.acc.InsertNote(2000); err != nil {
				t.Fatal(err)
			}
			r.eventually(t, "note credited", func() bool { return r.balance(t) == 2000 })
			if err := r.c.CashOut(context.Background()); err != nil {
				t.Fatal(err)
			}
			printed := r.prn.Printed()
			if len(printed) != 1 {
				t.Fatalf("printed %+v", printed)
			}
			f := printed[0].Fields
			if f[7] != c.figures || f[8] != c.words {
				t.Errorf("amount printed %q, in words %q; want %q, %q", f[7], f[8], c.figures, c.words)
			}
			for _, field := range f {
				for i := 0; i < len(field); i++ {
					if field[i] >= 0x80 {
						t.Errorf("field %q sends byte %#x, which the printer's font has no glyph for", field, field[i])
					}
				}
			}
		})
	}
}
