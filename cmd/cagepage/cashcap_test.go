package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablegames/ats/server/ledger"
)

// The cash cap at the cage page (issue 31), in a real browser: a A$70.00 ticket over the
// A$60.00 cap shows the split; Pay without the transfer's reference and the patron's ID is
// refused naming both, nothing paid; with them it pays A$60.00 in cash and A$10.00 by
// transfer, the receipt saying to hand over A$60.00 in cash and listing the transfer; the
// ledger has one payment of A$70.00 and the shift's total A$70.00.
func TestCashCapPaidSplitInABrowser(t *testing.T) {
	ctx := browser(t)
	f := newCappedFloor(t)
	origin := startStation(t, f)
	dir := shots(t)
	vn := f.ticket(t, "T01", "a", 5000, 2000)
	id := func(s string) chromedp.ID { return chromedp.ID(s) }
	do(t, ctx, "logging in and opening the shift", chromedp.Navigate(origin+"/"), chromedp.WaitVisible(id("cashier")),
		chromedp.KeyEvent("cashier-1"+kb.Tab+"2468"+kb.Enter), chromedp.WaitVisible(id("number")),
		chromedp.Click(chromedp.CSS(".shiftform button")), chromedp.WaitVisible(chromedp.CSS(".totals")))
	do(t, ctx, "scanning a ticket over the cap", chromedp.Click(id("number")), chromedp.KeyEvent(vn+kb.Enter),
		chromedp.WaitVisible(id("cashcap")), shoot(dir, "01-over-the-cap"))
	if v, leg, r := text(t, ctx, "#verdict"), text(t, ctx, "#cashcap legend"), text(t, ctx, "#reason"); v != "PAYABLE" ||
		leg != "Over the A$60.00 cash cap: A$60.00 in cash, A$10.00 by transfer or cheque" ||
		!strings.Contains(r, "A$70.00 is over the A$60.00 cash cap") {
		t.Fatalf("over the cap: %q %q %q", v, leg, r)
	}
	do(t, ctx, "paying without the reference and the ID", chromedp.Click(id("pay")), chromedp.WaitVisible(chromedp.CSS(".message")),
		shoot(dir, "02-refused-without-reference-and-id"))
	if got := text(t, ctx, ".message"); got != "Not paid: the transfer's reference and the patron's ID type, ID number and name required for the part over the cash cap." {
		t.Fatalf("without them: %q", got)
	}
	if n := len(f.payments(t, vn)); n != 0 {
		t.Fatalf("paid without them: %d", n)
	}
	do(t, ctx, "typing them and paying", chromedp.Click(id("reference")),
		chromedp.KeyEvent("TX-1001"+kb.Tab+"passport"+kb.Tab+"PA1234567"+kb.Tab+"Jane Citizen"), shoot(dir, "03-typed"),
		chromedp.Click(id("pay")), chromedp.WaitVisible(id("receipt")), shoot(dir, "04-receipt"))
	if cash, total, part := text(t, ctx, "#paid-amount"), text(t, ctx, "#receipt-total"), text(t, ctx, "#part-transfer"); cash != "A$60.00" || total != "A$70.00" || !strings.Contains(part, "A$10.00, ref TX-1001") {
		t.Fatalf("the receipt: %q %q %q", cash, total, part)
	}
	do(t, ctx, "the shift's totals", chromedp.Click(id("next")), chromedp.WaitVisible(chromedp.CSS(".totals")), shoot(dir, "05-shift"))
	if got := text(t, ctx, ".totals"); got != "1 ticket paid, A$70.00 (A$60.00 of it in cash)" {
		t.Fatalf("the shift's totals: %q", got)
	}
	ps := f.payments(t, vn)
	if len(ps) != 1 || ps[0].Amount != 7000 {
		t.Fatalf("the ledger's payments: %+v", ps)
	}
	by, err := f.led.PaidByMethod(context.Background(), "cashier-1", time.Time{}, time.Time{})
	if err != nil || by[ledger.PayCash].Amount != 6000 || by[ledger.PayTransfer].Amount != 1000 {
		t.Fatalf("paid by method: %v %v", by, err)
	}
}
