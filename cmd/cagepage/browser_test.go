package main

import (
	"bytes"
	"context"
	"fmt"
	"github.com/tablegames/ats/app/localtime"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// chromium is the headless browser the journeys drive: skipped with a reason where there is
// none, unless ATS_REQUIRE_BROWSER=1 (packaging/test.sh) makes that a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("ATS_REQUIRE_BROWSER") == "1" {
		t.Fatal("no chromium on PATH and ATS_REQUIRE_BROWSER=1: install it (packaging/setup.sh, or apt-get install chromium)")
	}
	t.Skip("no chromium on PATH: the cage page's browser journeys need it (packaging/setup.sh installs it; ATS_REQUIRE_BROWSER=1 makes its absence a failure)")
	return ""
}

// shots is where the journeys' screenshots go: ATS_CAGE_SHOTS, or the test's own directory.
func shots(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("ATS_CAGE_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else {
		dir = filepath.Join(dir, strings.NewReplacer("/", "-", " ", "-", ",", "").Replace(t.Name()))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// startStation runs the cagepage program itself (its flags, its HTTPS) over floor f, with a
// page certificate from the floor's CA for 127.0.0.1 and any further flags; it answers the
// page's origin.
func startStation(t *testing.T, f *floor, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	ca, err := pki.Files{Dir: f.pkiDir}.LoadCA()
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.IssueServer("127.0.0.1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := filepath.Join(dir, "page.pem"), filepath.Join(dir, "page-key.pem")
	if err := os.WriteFile(certFile, cert.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, cert.KeyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		args := append([]string{"-listen", "127.0.0.1:0", "-cert", certFile, "-key", keyFile, "-addr", f.addr, "-pki", f.pkiDir,
			"-pins", f.pins, "-zone", "Australia/Sydney", "-station", "cage-1"}, flags...)
		done <- serve(ctx, args, &stderr, func(addr string) { ready <- addr })
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("cagepage exited %d: %s", code, stderr.String())
		}
	})
	select {
	case addr := <-ready:
		return "https://" + addr
	case code := <-done:
		t.Fatalf("cagepage exited %d before serving: %s", code, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("cagepage did not serve in 10s: %s", stderr.String())
	}
	return ""
}

// browser starts a fresh headless Chromium (its own profile, no network beyond the page).
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// The page's certificate is the floor CA's, which this fresh profile does not know;
		// a cashier's browser has the CA installed.
		chromedp.Flag("ignore-certificate-errors", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1000, 820),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelC := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelC(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil { // start it now: a failure here is the browser's
		t.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

// tableSays is the table's own look-up of ticket vn through c: what the page must show word
// for word.
func tableSays(t *testing.T, c pb.CageServiceClient, vn string) *pb.CageTicket {
	t.Helper()
	v, err := c.LookupTicket(context.Background(), &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// shoot saves the page as dir/name.png.
func shoot(dir, name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		png, err := chromedp.FullScreenshot(100)(ctx, tg)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	})
}

// media emulates a CSS media type ("print"; "" for the screen again).
func media(m string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
		return err
	})
}

func do(t *testing.T, ctx context.Context, step string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second) // one step: a page that never comes fails here, not at the test's end
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		html, _ := chromedp.Run(hctx, chromedp.OuterHTML(chromedp.CSS("html")))
		t.Fatalf("%s: %v\nthe page:\n%s", step, err, html)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("reading %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// The cashier's journeys in a real browser, keyboard only as a scanner and a cashier type:
// log in; open the shift; a payable ticket scanned and paid (the receipt, and as it prints);
// the same ticket again refused as paid; an unknown number; a ticket held in a terminal's
// acceptor, with the table's reason word for word; a ticket the supervisor stopped, with the
// stop; a ticket at the reporting threshold refused until a second cashier (at another
// station) approves it, refused without the patron's ID, paid with it, the receipt showing the
// threshold record; the shift closed with its count and total; logged out.
//
// Once on one table with a SQLite ledger; once on a floor of two tables sharing PostgreSQL, the
// ticket printed at T1 and the station talking to T2 (a floor has many tables and one cage).
func TestCashierJourneysInABrowser(t *testing.T) {
	t.Run("one table on SQLite", func(t *testing.T) {
		ctx := browser(t)
		f := newFloor(t)
		cashierJourneys(t, ctx, f, f.addr, "T1")
	})
	t.Run("a PostgreSQL floor, the cage through T2", func(t *testing.T) {
		ctx := browser(t)
		f := newPGFloor(t)
		cashierJourneys(t, ctx, f, f.addrs["T2"], "T2")
	})
}

// cashierJourneys runs the journeys with the station talking to the table at addr, whose id is
// via.
func cashierJourneys(t *testing.T, ctx context.Context, f *floor, addr, via string) {
	origin := startStation(t, f, "-addr", addr)
	dir := shots(t)
	vn := f.ticket(t, "T01", "a", 5000)
	id := func(s string) chromedp.ID { return chromedp.ID(s) }
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }

	do(t, ctx, "the login page", chromedp.Navigate(origin+"/"), chromedp.WaitVisible(id("cashier")), shoot(dir, "01-login"))
	// Keys go to whatever has the focus, as a keyboard's and a scanner's do: the page puts it
	// where the cashier types next (the id, the number, the Pay button).
	do(t, ctx, "logging in",
		chromedp.KeyEvent("cashier-1"+kb.Tab+"2468"+kb.Enter),
		chromedp.WaitVisible(id("number")), shoot(dir, "02-logged-in"))
	if got := text(t, ctx, "#shift h2"); got != "No shift open" {
		t.Fatalf("after login the shift box says %q", got)
	}
	do(t, ctx, "opening the shift", chromedp.Click(css(".shiftform button")),
		chromedp.WaitVisible(css(".totals")), shoot(dir, "03-shift-open"))
	if got := text(t, ctx, ".totals"); got != "0 tickets paid, A$0.00" {
		t.Fatalf("a new shift's totals: %q", got)
	}

	// A scanner types the digits and Enter into the focused field.
	do(t, ctx, "scanning a payable ticket", chromedp.KeyEvent(vn+kb.Enter),
		chromedp.WaitVisible(id("verdict")), shoot(dir, "04-payable"))
	if v, a := text(t, ctx, "#verdict"), text(t, ctx, "#amount"); v != "PAYABLE" || a != "A$50.00" {
		t.Fatalf("a payable ticket shows %q %q", v, a)
	}
	do(t, ctx, "paying it (Enter on the focused Pay button)", chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(id("receipt")), shoot(dir, "05-receipt"))
	if a, tk := text(t, ctx, "#paid-amount"), text(t, ctx, "#receipt-ticket"); a != "A$50.00" || tk != pretty(vn) {
		t.Fatalf("the receipt shows %q for %q", a, tk)
	}
	pid := text(t, ctx, "#payment-id")
	if ps := f.payments(t, vn); len(ps) != 1 || ps[0].ID != pid || ps[0].Cashier != "cashier-1" || ps[0].ViaTable != via {
		t.Fatalf("the ledger's payments %+v, the receipt's %s", ps, pid)
	}
	do(t, ctx, "the receipt as it prints", media("print"), shoot(dir, "06-receipt-printed"), media(""))

	lookup := func(step, number, shot string) (verdict, reason string) {
		do(t, ctx, step, chromedp.Click(id("next")), chromedp.WaitVisible(id("number")),
			chromedp.KeyEvent(number+kb.Enter), chromedp.WaitVisible(id("verdict")), shoot(dir, shot))
		return text(t, ctx, "#verdict"), text(t, ctx, "#reason")
	}
	v, why := lookup("the same ticket again", vn, "07-already-paid")
	if v != "NOT PAYABLE: ALREADY PAID" || !strings.Contains(why, "has already been paid") || !strings.Contains(why, "cashier-1") {
		t.Fatalf("the paid ticket again: %q, %q", v, why)
	}
	if n := len(f.payments(t, vn)); n != 1 {
		t.Fatalf("%d payments of the ticket", n)
	}
	unknown := "123456789012345678"
	v, why = lookup("an unknown number", pretty(unknown), "08-unknown")
	if v != "NOT PAYABLE: UNKNOWN" || why != fmt.Sprintf("unknown number %s: check it and type it again", unknown) {
		t.Fatalf("an unknown number: %q, %q", v, why)
	}

	held := f.ticket(t, "T01", "b", 2000)
	f.held(t, "T02", held)
	v, why = lookup("a held ticket", held, "09-held")
	d := newCageDialer(addr, f.pkiDir)
	defer d.close()
	c, err := d.cage("cashier-2")
	if err != nil {
		t.Fatal(err)
	}
	// The table's sentence, its times in the floor's zone (one clock on the page).
	if table := tableSays(t, c, held); v != "NOT PAYABLE: HELD" || table.Message == "" || strings.Contains(why, "UTC") ||
		why != localtime.Rewrite(table.Message, sydney(t), time.Now()) {
		t.Fatalf("a held ticket: %q, %q; the table says %q", v, why, table.Message)
	}

	noPay := func(what string) {
		t.Helper()
		html, err := chromedp.Run(ctx, chromedp.OuterHTML(css("html")))
		if err != nil || strings.Contains(html, `id="pay"`) {
			t.Fatalf("%s has a Pay button (%v):\n%s", what, err, html)
		}
	}
	noPay("a held ticket")

	// A stopped ticket: the supervisor stops it with their certificate, at the station's table.
	stopped := f.ticket(t, "T01", "c", 1000)
	stop := f.stop(t, addr, stopped, "reported stolen by the patron")
	v, why = lookup("a stopped ticket", stopped, "10-stopped")
	if says := tableSays(t, c, stopped); v != "NOT PAYABLE: STOPPED" || why != localtime.Rewrite(says.Message, sydney(t), time.Now()) || !strings.Contains(why, "reported stolen by the patron") {
		t.Fatalf("a stopped ticket: %q, %q; the table says %q", v, why, says.Message)
	}
	if got, want := text(t, ctx, "#stops li"), fmt.Sprintf("reported stolen by the patron\nstopped by supervisor:supervisor at %s, %s",
		stop.TableId, time.Unix(0, stop.StoppedAtUnixNanos).In(sydney(t)).Format("2 Jan 2006 15:04:05 MST")); got != want {
		t.Fatalf("the stop shown: %q, want %q", got, want)
	}
	noPay("a stopped ticket")

	// A ticket at the reporting threshold: refused until a second person approves it and the
	// patron's ID is typed.
	big := f.ticket(t, "T01", "d", 5000, 5000)
	v, why = lookup("a ticket at the reporting threshold, no approval on file", big, "11-threshold-unapproved")
	if says := tableSays(t, c, big); v != "NOT PAYABLE: THRESHOLD" || why != localtime.Rewrite(says.Message, sydney(t), time.Now()) {
		t.Fatalf("a threshold ticket: %q, %q; the table says %q", v, why, says.Message)
	}
	if got := text(t, ctx, "#approval"); !strings.HasPrefix(got, "No second person's approval is on file: a supervisor or another cashier approves it") {
		t.Fatalf("the approval line: %q", got)
	}
	noPay("an unapproved threshold ticket")
	// The second cashier, at another station: a browser of its own.
	ctx2 := browser(t)
	do(t, ctx2, "the second cashier logs in at another station", chromedp.Navigate(origin+"/"), chromedp.WaitVisible(id("cashier")),
		chromedp.KeyEvent("cashier-2"+kb.Tab+"1357"+kb.Enter), chromedp.WaitVisible(id("number")))
	do(t, ctx2, "the second cashier looks it up", chromedp.KeyEvent(pretty(big)+kb.Enter), chromedp.WaitVisible(id("approve")),
		shoot(dir, "12-second-cashier-looks-it-up"))
	do(t, ctx2, "the second cashier approves it", chromedp.Click(id("approve")), chromedp.WaitVisible(css(".message")),
		shoot(dir, "13-approved-by-the-second-cashier"))
	if got := text(t, ctx2, ".message"); !strings.HasPrefix(got, "Approved by you (cashier:cashier-2) on ") {
		t.Fatalf("the approval's answer: %q", got)
	}
	do(t, ctx, "the approved ticket again", chromedp.Click(id("next")), chromedp.WaitVisible(id("number")),
		chromedp.KeyEvent(big+kb.Enter), chromedp.WaitVisible(id("idtype")), shoot(dir, "14-threshold-approved"))
	if v, a := text(t, ctx, "#verdict"), text(t, ctx, "#approval"); v != "PAYABLE" || !strings.HasPrefix(a, "Approved by cashier:cashier-2 on ") {
		t.Fatalf("the approved ticket: %q, %q", v, a)
	}
	do(t, ctx, "paying without the patron's ID", chromedp.Click(id("pay")), chromedp.WaitVisible(css(".message")),
		shoot(dir, "15-refused-without-the-patrons-id"))
	if got := text(t, ctx, ".message"); got != "Not paid: the patron's ID type, ID number and name are required at or over the reporting threshold. Type them from the patron's ID, then Pay." {
		t.Fatalf("paying without the ID: %q", got)
	}
	if n := len(f.payments(t, big)); n != 0 {
		t.Fatalf("paid without the patron's ID: %d payments", n)
	}
	// The ID type has the focus: type the three fields, Tab between them, Enter pays.
	do(t, ctx, "typing the patron's ID and paying",
		chromedp.KeyEvent("passport"+kb.Tab+"PA1234567"+kb.Tab+"Jane Citizen"), shoot(dir, "16-patrons-id-typed"),
		chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(id("receipt")), shoot(dir, "17-threshold-receipt"),
		media("print"), shoot(dir, "18-threshold-receipt-printed"), media(""))
	if p, idn, by := text(t, ctx, "#threshold-patron"), text(t, ctx, "#threshold-id"), text(t, ctx, "#threshold-approved"); p != "Jane Citizen" || idn != "passport PA1234567" || by != "cashier:cashier-2" {
		t.Fatalf("the receipt's threshold record: %q, %q, %q", p, idn, by)
	}
	if ps := f.payments(t, big); len(ps) != 1 || ps[0].ID != text(t, ctx, "#payment-id") || ps[0].Amount != 10000 {
		t.Fatalf("the threshold ticket's payments: %+v", ps)
	}

	do(t, ctx, "closing the shift", chromedp.Click(id("next")), chromedp.WaitVisible(id("number")),
		shoot(dir, "19-before-close"),
		chromedp.Click(css(".shiftform button")), chromedp.WaitVisible(id("close-confirm")), shoot(dir, "20-close-asked"),
		chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(id("shift-report")), shoot(dir, "21-shift-closed"))
	if n, a := text(t, ctx, "#shift-count"), text(t, ctx, "#shift-amount"); n != "2" || a != "A$150.00" {
		t.Fatalf("the closed shift's totals: %q tickets, %q", n, a)
	}
	do(t, ctx, "logging out", chromedp.Click(css(`form[action="/logout"] button`)),
		chromedp.WaitVisible(id("cashier")), shoot(dir, "22-logged-out"))
	if got := text(t, ctx, ".message"); got != "You are logged out." {
		t.Fatalf("after logout: %q", got)
	}
}
