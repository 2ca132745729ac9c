package ui

import (
	appmoney "github.com/tablegames/ats/app/money"
)

// money formats cents as dollars and cents with thousands separators, without floating point:
// 123456 → "1,234.56"; whole dollars drop the cents on chips: 500 → "5". Tournament chips too
// (100 = a 1 chip), as the console prints them (app/money.Chips).
func money(cents int64) string { return appmoney.Chips(cents) }

// amount formats cents always with two decimals: "1,234.50" (money.Grouped). It is the bare
// figure, without the currency: money on the screen goes through inCurrency (issue 18: the
// symbol wherever money shows); amount alone is for a figure that is not the player's money,
// or one printed where no table (and so no currency) is known.
func amount(cents int64) string { return appmoney.Grouped(cents) }

// inCurrency is cents of the table's currency (its ISO 4217 code, v.Config.Currency) as every
// figure of money on the screen reads: the currency's symbol, then the amount with two decimals,
// "€1,234.50", "A$12.00"; the bare amount when the table names no currency. Tournament chips are
// not money and never go through it.
func inCurrency(code string, cents int64) string { return currencySymbol(code) + amount(cents) }

// shortInCurrency is cents of the table's currency as chips and casinos' limit signs read them:
// whole units without their cents ("€10", "€2.50"). The one-line list of call bets beside the
// racetrack is cut (with an ellipsis) no sooner than it was without the symbol, and a row of the
// limit sign fits the panel at the sign's size.
func shortInCurrency(code string, cents int64) string { return currencySymbol(code) + money(cents) }

// currencySymbol is what stands before an amount of the table's currency (ISO 4217 code, from
// the table's configuration): its symbol where one is common, else the code and a space; none
// when the table names no currency.
func currencySymbol(code string) string { return appmoney.Symbol(code) }
