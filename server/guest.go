package server

import (
	"fmt"
	"strconv"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// Guest players (000 §11.3.1, §11.7.3(b), §11.7.7). A TouchTable has places for up to 21
// players at Player Displays "and up to 12 guest players": players with no display, who buy in
// by tendering chips to the dealer, announce their bets to the dealer, who places them at the
// console (000 §11.4.2(b)), and are paid out in chips when they leave. Each has a chip account
// on the console, ids G01 to G12, kept exactly as a seat's: the same ledger rows, journal,
// settlement and conservation; they differ only where a seat's rules need its display:
//
//   - the dealer's buy-in (CreditPlayer) is credited at once: a seat's buy-in waits for the
//     player's confirmation on the Player Display (004 §6.3(c)), and a guest has none — the
//     guest confirms by handing the chips over, in front of the dealer (§11.7.2–11.7.3(b));
//   - every wager is the dealer's (PlaceWager), any bet the guest announces;
//   - no certificate is ever a guest: a terminal's certificate with a guest id is refused at
//     the edge, so no cabinet can watch, wager from or cash out a guest's account;
//   - a guest is not a seat: it is never "vacatable" (001 §12.8 is about Player Displays) and
//     a closed guest account does not make the table look as if a seat were free.

// MaxGuests is how many guest accounts a table has (000 §11.3.1).
const MaxGuests = 12

// IsGuest reports whether id is a guest account's: G01 to G12.
func IsGuest(id string) bool {
	n, ok := guestNumber(id)
	return ok && n >= 1 && n <= MaxGuests
}

// guestNumber is the number of a guest-shaped id ("G" and two digits).
func guestNumber(id string) (int, bool) {
	if len(id) != 3 || id[0] != 'G' || id[1] < '0' || id[1] > '9' || id[2] < '0' || id[2] > '9' {
		return 0, false
	}
	n, err := strconv.Atoi(id[1:])
	return n, err == nil
}

// GuestIDs are the table's guest account ids, in order.
func GuestIDs() []string {
	out := make([]string, MaxGuests)
	for i := range out {
		out[i] = fmt.Sprintf("G%02d", i+1)
	}
	return out
}

// guestIDErr refuses a guest-shaped id that is no guest's (G00, G13 …) with the reason, rather
// than as an unknown terminal.
func guestIDErr(id string) error {
	if n, ok := guestNumber(id); ok && (n < 1 || n > MaxGuests) {
		return invalid("guest %s: a table has guest accounts G01 to G%02d (000 §11.3.1: up to %d guest players)", id, MaxGuests, MaxGuests)
	}
	return nil
}

// refuseGuestCertificate is the edge's rule that no terminal certificate acts as a guest: a
// terminal certificate issued (by mistake or on purpose) with a guest's id is refused every
// call, so it can neither watch nor wager from nor cash out a guest's account.
func refuseGuestCertificate(role, id string) error {
	if role == pki.RoleTerminal && IsGuest(id) {
		return status.Errorf(codes.PermissionDenied, "terminal %q: G01 to G%02d are guest accounts on the dealer's console; no terminal is a guest", id, MaxGuests)
	}
	return nil
}

// guestBuyIn credits a guest's account with the chips the guest tendered to the dealer, in
// the money call's transaction: the buy-in is recorded accepted at once (see above).
func (t *Table) guestBuyIn(tx *ledger.Tx, now time.Time, id string, amount int64) (*pb.CreditPlayerResponse, func(), error) {
	bal, _, err := tx.Account(id)
	if err != nil {
		return nil, nil, err
	}
	if bal, err = t.moneyInCapped(id, bal, amount); err != nil {
		return nil, nil, err
	}
	b := ledger.BuyIn{ID: newID("B"), Terminal: id, Amount: amount, State: "accepted"}
	if err := tx.PutBuyIn(b); err != nil {
		return nil, nil, err
	}
	if err := tx.SetAccount(id, bal, true); err != nil {
		return nil, nil, err
	}
	if _, err := tx.AddMeter(ledger.MeterMoneyIn, amount); err != nil {
		return nil, nil, err
	}
	if err := tx.Event("guest-buy-in", id, "", amount, b.ID+": chips tendered to the dealer"); err != nil {
		return nil, nil, err
	}
	return &pb.CreditPlayerResponse{BuyInId: b.ID}, func() {
		t.buyins[b.ID] = b
		a := t.account(id)
		a.balance, a.open = bal, true
		t.balanceEvent(now, id, amount, "guest-buy-in")
	}, nil
}
