package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The cashier's player-card journey in a real browser (issue 31): a card read at the counter
// is not registered; the cashier registers it to the person whose passport they hold (typed,
// Tab between the fields, Enter registers); the page shows the holder with the document's
// last 3 characters only; the card registered again to another person is refused in the
// table's words; reported lost with a reason; then registered to the other person. Once on a
// SQLite table, once on a PostgreSQL floor through T2.
func TestCashierRegistersACardInABrowser(t *testing.T) {
	t.Run("one table on SQLite", func(t *testing.T) {
		ctx := browser(t)
		f := newFloor(t)
		cardJourney(t, ctx, f, f.addr)
	})
	t.Run("a PostgreSQL floor, the cage through T2", func(t *testing.T) {
		ctx := browser(t)
		f := newPGFloor(t)
		cardJourney(t, ctx, f, f.addrs["T2"])
	})
}

func cardJourney(t *testing.T, ctx context.Context, f *floor, addr string) {
	origin := startStation(t, f, "-addr", addr)
	dir := shots(t)
	id := func(s string) chromedp.ID { return chromedp.ID(s) }
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	do(t, ctx, "logging in", chromedp.Navigate(origin+"/"), chromedp.WaitVisible(id("cashier")),
		chromedp.KeyEvent("cashier-1"+kb.Tab+"2468"+kb.Enter), chromedp.WaitVisible(id("cardid")))
	do(t, ctx, "reading a new card", chromedp.Click(id("cardid")), chromedp.KeyEvent("C42"+kb.Enter),
		chromedp.WaitVisible(css(".msg-info")), shoot(dir, "01-card-not-registered"))
	if got := text(t, ctx, "#cardmsg"); got != "Card C42 is not registered: register it to the person whose identity document you have checked." {
		t.Fatalf("a new card: %q", got)
	}
	do(t, ctx, "registering it without the document's number", chromedp.KeyEvent("Jane Citizen"+kb.Tab+"passport"+kb.Enter),
		chromedp.WaitVisible(css(".msg-refused")), shoot(dir, "02-number-missing"))
	if got := text(t, ctx, "#cardmsg"); got != "Not registered: the document's number missing." {
		t.Fatalf("no number: %q", got)
	}
	// The name and type are kept; the number is typed.
	do(t, ctx, "typing the number and registering", chromedp.Click(id("idnumber")), chromedp.KeyEvent("PA1234567"+kb.Enter),
		chromedp.WaitVisible(css(".msg-registered")), shoot(dir, "03-registered"))
	if m, h, s := text(t, ctx, "#cardmsg"), text(t, ctx, "#holder"), text(t, ctx, "#cardstate"); m != "Registered: card C42 is registered to Jane Citizen, passport ending 567." ||
		h != "Jane Citizen — passport ending 567" || s != "registered" {
		t.Fatalf("registered: %q %q %q", m, h, s)
	}
	html, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("html")))
	if err != nil || strings.Contains(html, "1234567") || strings.Contains(html, `id="register"`) {
		t.Fatalf("the registered card's page shows the number or a second registration form (%v):\n%s", err, html)
	}

	// The second cashier, at another station, tries to register the card to someone else.
	ctx2 := browser(t)
	do(t, ctx2, "the second cashier logs in", chromedp.Navigate(origin+"/"), chromedp.WaitVisible(id("cashier")),
		chromedp.KeyEvent("cashier-2"+kb.Tab+"1357"+kb.Enter), chromedp.WaitVisible(id("cardid")),
		chromedp.Click(id("cardid")), chromedp.KeyEvent("C42"+kb.Enter), chromedp.WaitVisible(id("lost")))
	// Its page has no registration form for a card registered: the table is asked anyway, as
	// a forged form would, and refuses in its words.
	d := newCageDialer(addr, f.pkiDir)
	defer d.close()
	c, err := d.cage("cashier-2")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.RegisterCard(context.Background(), &pb.RegisterCardRequest{CardId: "C42",
		Holder: &pb.PatronIdentity{Name: "John Smith", IdType: "driver licence", IdNumber: "DL99887766"}})
	if err == nil || !strings.Contains(err.Error(), "Card C42 is registered to Jane Citizen, passport ending 567: it is registered to another person only after it is reported lost.") {
		t.Fatalf("another person's registration: %v", err)
	}
	do(t, ctx2, "reporting it lost without a reason", chromedp.Click(id("lost")), chromedp.WaitVisible(css(".msg-refused")))
	if got := text(t, ctx2, "#cardmsg"); got != "Not reported: the reason is required." {
		t.Fatalf("no reason: %q", got)
	}
	do(t, ctx2, "reporting it lost", chromedp.Click(id("reason")), chromedp.KeyEvent("holder phoned"), chromedp.Click(id("lost")),
		chromedp.WaitVisible(css(".msg-reported")), shoot(dir, "04-reported-lost"))
	if m, s := text(t, ctx2, "#cardmsg"), text(t, ctx2, "#cardstate"); m != "Reported: card C42 is lost." || s != "lost" {
		t.Fatalf("lost: %q %q", m, s)
	}
	do(t, ctx2, "registering it to John", chromedp.Click(id("name")),
		chromedp.KeyEvent("John Smith"+kb.Tab+"driver licence"+kb.Tab+"DL99887766"+kb.Enter),
		chromedp.WaitVisible(css(".msg-registered")), shoot(dir, "05-registered-to-another"))
	if h := text(t, ctx2, "#holder"); h != "John Smith — driver licence ending 766" {
		t.Fatalf("to John: %q", h)
	}
	pc, err := c.LookupCard(context.Background(), &pb.LookupCardRequest{CardId: "C42"})
	if err != nil || pc.RegisteredBy != "cashier:cashier-2" || pc.State != "registered" {
		t.Fatalf("the table's record: %v %v", pc, err)
	}
}
