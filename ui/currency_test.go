package ui

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
)

// moneyFigure is a figure as amount prints money: digits grouped by commas and two decimals
// ("1,234.50"). Chip values ("5", "25") and tournament chips print without forced decimals, so
// a figure of this shape on the screen is money (or an amount that should be).
var moneyFigure = regexp.MustCompile(`\d{1,3}(?:,\d{3})*\.\d{2}`)

// bareMoney is every figure of money in texts that the currency symbol sym does not stand
// before, and how many figures carried it.
func bareMoney(texts []string, sym string) (bare []string, with int) {
	for _, t := range texts {
		for _, at := range moneyFigure.FindAllStringIndex(t, -1) {
			before := t[:at[0]]
			if at[0] > 0 && strings.ContainsAny(before[len(before)-1:], "0123456789,.") {
				continue // the tail of a longer number, not a figure of its own
			}
			if strings.HasSuffix(before, sym) || strings.HasSuffix(before, sym+"-") {
				with++
				continue
			}
			bare = append(bare, fmt.Sprintf("%q in %q", t[at[0]:at[1]], t))
		}
	}
	return bare, with
}

// withCurrency is the events with the table's currency set in every snapshot's configuration.
func withCurrency(events func(*testing.T, roulette.Layout) []table.Event, code string) func(*testing.T, roulette.Layout) []table.Event {
	return func(t *testing.T, l roulette.Layout) []table.Event {
		evs := events(t, l)
		for i, ev := range evs {
			if s, ok := ev.(table.Snapshot); ok {
				s.Config.Currency = code
				evs[i] = s
			}
		}
		return evs
	}
}

// shownMoney is every text drawn on the canvas.
func shownMoney(c fyne.Canvas) []string {
	return shownTexts(test.RenderToMarkup(c))
}

// Every figure of money on the player's screen carries the table's currency (issue 18 point
// 9): in every screen state of every design (balance, bet, win, the jackpot meter and its
// messages, the dealer's wagers and buy-in, the call-bet line) and on the tournament screens
// (prizes, the prize pool; chips stay bare), with a currency whose symbol is not "$". At
// 1280×800 the screens still fit with the wider figures.
func TestMoneyShowsTheCurrency(t *testing.T) {
	test.NewTempApp(t)
	if T("BALANCE") != "BALANCE" {
		t.Skip("the screens are checked in English; run with LANG=en_US.UTF-8 (or unset)")
	}
	cases := stateCases()
	for _, c := range tournamentCases() {
		cases = append(cases, stateCase{file: c.name, design: diagrams.DiagramA, layout: roulette.Layout{Wheel: roulette.SingleZero},
			events: func(t *testing.T, l roulette.Layout) []table.Event { return []table.Event{up, c.snap(t, l)} }})
	}
	// Figures the screens must show with the symbol, so the check cannot pass on a screen that
	// lost its money.
	must := map[string][]string{
		"a_result.xml":          {"WON €918.00"},
		"u_dealer_wager.xml":    {"voisins €9 placed by the", "The dealer placed voisins for you: €9.00"},
		"a_dealer_buy_in.xml":   {"The dealer offers a buy-in of €500.00"},
		"a_jackpot_won.xml":     {"JACKPOT €1,000.00", "JACKPOT! You won €12,345.00"},
		"u_asian_racetrack.xml": {"asian-neighbour 32 15", "19 €10"}, // on two lines in the 1920 column
		"tournament_final":      {"Prize pool €300.00"},
	}
	sizes := []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			// What the screen needs without a currency, which the symbol must not add to.
			plain, pw := stateScreen(t, c)
			var need []fyne.Size
			for _, size := range sizes {
				pw.Resize(size)
				need = append(need, plain.Content().MinSize())
			}
			c.events = withCurrency(c.events, "EUR")
			s, w := stateScreen(t, c)
			for i, size := range sizes {
				w.Resize(size)
				texts := shownMoney(w.Canvas())
				bare, with := bareMoney(texts, "€")
				for _, b := range bare {
					t.Errorf("at %v money without its currency: %s", size, b)
				}
				for _, want := range must[c.file] {
					if !shows(texts, want) {
						t.Errorf("at %v does not show %q (shows %q)", size, want, texts)
					}
				}
				if with == 0 && !strings.HasPrefix(c.file, "tournament") && c.file != "a_table_closed.xml" {
					t.Errorf("at %v no money shown at all: %q", size, texts)
				}
				if m := s.Content().MinSize(); m.Width > max(size.Width, need[i].Width) || m.Height > max(size.Height, need[i].Height) {
					t.Errorf("at %v the screen needs %v with the currency, %v without", size, m, need[i])
				}
			}
		})
	}
}

// The favourites' buttons are money: the slip's total in the table's currency, and they still
// fit beside the chips at 1280×800.
func TestFavouriteButtonsShowTheCurrency(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	c := stateCase{file: "favourites", design: diagrams.DiagramU, layout: l,
		events: withCurrency(func(*testing.T, roulette.Layout) []table.Event {
			return []table.Event{up, tableSnap(l, table.PhaseWagering)}
		}, "AUD")}
	s, w := stateScreen(t, c)
	size := fyne.NewSize(1280, 800)
	w.Resize(size)
	s17, _ := l.Inside(roulette.Straight, []roulette.Number{17})
	red, _ := l.Outside(roulette.Red, 0)
	test.Tap(findChip(t, s.Content(), "5"))
	for _, sp := range []roulette.Spot{s17, red} {
		r, _ := s.geom.Region(sp)
		test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	}
	test.Tap(findButton(t, s.Content(), T("Save favourite")))
	test.Tap(findChip(t, s.Content(), "100"))
	r, _ := s.geom.Region(red)
	test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	test.Tap(findButton(t, s.Content(), T("Save favourite")))
	s.update(s.term.View())
	findButton(t, s.Content(), T("Favourite")+" A$10.00")
	findButton(t, s.Content(), T("Favourite")+" A$110.00")
	bare, with := bareMoney(shownMoney(w.Canvas()), "A$")
	for _, b := range bare {
		t.Errorf("money without its currency: %s", b)
	}
	if with < 4 { // balance, bet, two favourites
		t.Errorf("%d figures with the currency", with)
	}
	if m := s.Content().MinSize(); m.Width > size.Width || m.Height > size.Height {
		t.Errorf("with two favourites the screen needs %v of %v", m, size)
	}
}

// The help screen's limits (the payout table's columns and the plain text) are money in the
// table's currency; the odds beside them are not.
func TestHelpLimitsShowTheCurrency(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1280, 800))
	v := term.View()
	v.Config.Currency = "GBP"
	var cells []string
	walkObjects(helpView(v, helpFeatures{double: true}, s.sizing), func(o fyne.CanvasObject) {
		if lb, ok := o.(*widget.Label); ok {
			cells = append(cells, lb.Text)
		}
	})
	bare, with := bareMoney(cells, "£")
	for _, b := range bare {
		t.Errorf("help screen: money without its currency: %s", b)
	}
	// Three limits per bet kind, and the table minimum.
	if want := 3*len(helpKinds(v)) + 1; with != want { // the kinds this layout has
		t.Errorf("help screen: %d figures with the currency, want %d: %q", with, want, cells)
	}
	if !shows(cells, "£25.00") || !shows(cells, fmt.Sprintf(T("Table minimum per spin %s"), "£5.00")) {
		t.Errorf("help screen: %q", cells)
	}
	txt := helpText(v)
	bare, with = bareMoney(strings.Split(txt, "\n"), "£")
	for _, b := range bare {
		t.Errorf("help text: money without its currency: %s", b)
	}
	if with == 0 || !strings.Contains(txt, fmt.Sprintf("  %-10s %s – %s, %s %s", T("straight"), "£1.00", "£25.00", T("in steps of"), "£1.00")) {
		t.Errorf("help text:\n%s", txt)
	}
}

// labelTexts is the text of every label in a tree of canvas objects.
func labelTexts(o fyne.CanvasObject) []string {
	var out []string
	walkObjects(o, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			out = append(out, l.Text)
		}
	})
	return out
}

// The game records' figures and the tickets are money in the table's currency, and the tickets'
// amounts stand right-aligned in one column, the same in both lists, whatever their length, the
// currency's and the language's (in Chinese the "monospace" list was drawn in a proportional
// font and its columns wandered).
func TestRecallShowsTheCurrency(t *testing.T) {
	restoreLanguage(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	geom, err := diagrams.New(l)
	if err != nil {
		t.Fatal(err)
	}
	red, _ := l.Outside(roulette.Red, 0)
	rounds := []recall.Round{
		{ID: "R2", Layout: l, Settled: true, Recognised: true, Number: 1, Staked: 500, Returned: 1000, BalanceBefore: 5000,
			BalanceAfter: 5500, MoneyIn: 2000, MoneyOut: 123456,
			Wagers: []recall.Wager{{Bet: roulette.Bet{Spot: red}.Spec(), Tried: 500, Accepted: 500}}},
		{ID: "R1", Layout: l, Settled: true, Recognised: false, Staked: 700, BalanceBefore: 5000, BalanceAfter: 5000},
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	printed := []recall.Ticket{{At: at, Validation: "001234567890123456", Amount: 4500, State: "printed"},
		{At: at, Validation: "001234567890123457", Amount: 12345678, State: "redeemed"}}
	accepted := []recall.Ticket{{At: at, Amount: 2000}, {At: at, Validation: "009876543210987654", Amount: 99999999}}
	for _, c := range []struct{ language, cur string }{{"en", "EUR"}, {"en", "MOP"}, {"en", "CHF"}, {"zh_Hans", "CNY"}} {
		if err := SetLanguage(c.language); err != nil {
			t.Fatal(err)
		}
		test.NewTempApp(t)
		fyne.CurrentApp().Settings().SetTheme(Theme())
		sym := currencySymbol(c.cur)
		rv := newRecallView(geom, c.cur, rounds, printed, accepted)
		w := test.NewWindow(rv.root)
		w.Resize(fyne.NewSize(1200, 800))
		var texts []string
		for i := range rounds {
			rv.show(i)
			texts = append(texts, strings.Split(rv.detail.Text, "\n")...)
		}
		tickets := ticketsView(c.cur, printed, accepted)
		texts = append(texts, labelTexts(tickets)...)
		bare, with := bareMoney(texts, sym)
		for _, b := range bare {
			t.Errorf("%s %s: money without its currency: %s", c.language, c.cur, b)
		}
		// Wagered, won, before, after, in, out; the void game's wagers, wagered, won, before,
		// after, in, out; four tickets.
		if with != 6+7+4 {
			t.Errorf("%s %s: %d figures with the currency: %q", c.language, c.cur, with, texts)
		}
		if !shows(texts, sym+"10.00") || !shows(texts, sym+"1,234.56") || !shows(texts, sym+"999,999.99") {
			t.Errorf("%s %s: %q", c.language, c.cur, texts)
		}
		// The amounts' right edges, laid out in a window as the recall shows them.
		tw := test.NewWindow(container.NewVScroll(tickets))
		tw.Resize(fyne.NewSize(1200, 600))
		rights := map[float32]int{}
		walkObjects(tickets, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && moneyFigure.MatchString(l.Text) {
				if l.Alignment != fyne.TextAlignTrailing {
					t.Errorf("%s %s: %q is not right-aligned", c.language, c.cur, l.Text)
				}
				rights[fyne.CurrentApp().Driver().AbsolutePositionForObject(l).X+l.Size().Width]++
			}
		})
		if len(rights) != 1 {
			t.Errorf("%s %s: the tickets' amounts end at %v", c.language, c.cur, rights)
		}
		tw.Close()
		w.Close()
	}
}

// The technician's meters and the event log's amounts are money in the table's currency; the
// counts beside them are not.
func TestTechnicianMetersShowTheCurrency(t *testing.T) {
	test.NewTempApp(t)
	s, w, term, _ := serviceScreenIn(t, fyne.NewSize(1280, 800), nil, "NZD")
	c := w.Canvas()
	term.TechnicianCard("900001")
	s.update(term.View())
	for _, d := range "246810" {
		test.Tap(buttonIn(t, c, string(d)))
	}
	test.Tap(buttonIn(t, c, T("OK")))
	if !term.InService() {
		t.Fatal("the PIN did not enter technician mode")
	}
	for _, page := range []struct {
		tab  int
		want []string // figures the page must show with the symbol
	}{{2, []string{"NZ$160.00", "NZ$20.00", "NZ$45.50 (1)", "NZ$275.00"}}, {3, []string{"NZ$120.00 cashout", "NZ$20.00 note"}}} {
		s.service.tabs.SelectIndex(page.tab)
		texts := shownMoney(c)
		var lines []string
		for _, t := range texts {
			lines = append(lines, strings.Split(t, "\n")...)
		}
		bare, _ := bareMoney(lines, "NZ$")
		for _, b := range bare {
			t.Errorf("page %d: money without its currency: %s", page.tab, b)
		}
		for _, want := range page.want {
			if !shows(lines, want) {
				t.Errorf("page %d does not show %q: %q", page.tab, want, lines)
			}
		}
	}
}

// The bare amount is for figures that are not the player's money, or said where no table is
// known: a call of it anywhere else in the package is a figure of money that would show without
// its currency.
func TestBareAmountOnlyWhereNoCurrency(t *testing.T) {
	allowed := map[string]bool{"inCurrency": true, "sayArg": true}
	fset := token.NewFileSet()
	calls := 0
	for _, f := range parseSources(t, fset, "*.go") {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "amount" {
						calls++
						if !allowed[fn.Name.Name] {
							t.Errorf("%s: %s formats money without the currency: use inCurrency", fset.Position(c.Pos()), fn.Name.Name)
						}
					}
				}
				return true
			})
		}
	}
	if calls == 0 {
		t.Error("no call of amount found: the check looks at nothing")
	}
}
