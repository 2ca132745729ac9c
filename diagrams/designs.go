package diagrams

// Element is a thing a screen design must show. The UI tags each widget that shows one, and a
// test checks every design's screen shows all of its elements.
type Element string

// The elements the rules require (SPEC §7).
const (
	ElemLayout         Element = "layout"          // the virtual betting layout
	ElemChipSelector   Element = "chip-selector"   // chip tray with the table's denominations
	ElemBalance        Element = "balance"         // chip account balance (001 §6.1)
	ElemCountdown      Element = "countdown"       // remaining wagering period (001 §5.2)
	ElemPeriodStatus   Element = "period-status"   // open / closing / closed (000 §10.6.2)
	ElemOutcome        Element = "outcome"         // winning number (001 §5.5)
	ElemAmountWon      Element = "amount-won"      // amount won on the last spin
	ElemAmountBet      Element = "amount-bet"      // total on the layout (000 §11.2)
	ElemLimitSign      Element = "limit-sign"      // min, max, unit per bet kind (001 §4.1–4.2)
	ElemCashOut        Element = "cash-out"        // (001 §6.6.1(b))
	ElemHistory        Element = "history"         // recent outcomes
	ElemJackpotMeter   Element = "jackpot-meter"   // when the table has a jackpot (001 §8)
	ElemNoteBuyIn      Element = "note-buy-in"     // note acceptor buy-in prompt (000 §10.3.1)
	ElemLuckyBall      Element = "lucky-ball"      // four numbers, coloured borders, odds (003 §7)
	ElemRacetrack      Element = "racetrack"       // neighbours and call bets (000 §6.4, §11.2)
	ElemRemoveAll      Element = "remove-all"      // (000 §11.2)
	ElemRemoveLast     Element = "remove-last"     // (000 §11.2)
	ElemRepeat         Element = "repeat"          // (000 §11.2)
	ElemDouble         Element = "double"          // players expect it
	ElemHelp           Element = "help"            // (000 §11.2)
	ElemGameStatus     Element = "game-status"     // waiting, frozen, void, reconnecting… (000 §11.2)
	ElemPendingMinimum Element = "pending-minimum" // a higher minimum and its time (001 §4.1 fn)
)

// Design is a screen design of the rules and the elements it must show.
type Design struct {
	Name     string
	Source   string
	Elements []Element
}

// DiagramA is the Rapid Roulette ATS screen (001 §2.1, 004 §2.1; Diagram D for double zero).
var DiagramA = Design{
	Name:   "A",
	Source: "001 §2.1, 004 §2.1",
	Elements: []Element{ElemLayout, ElemChipSelector, ElemBalance, ElemCountdown, ElemPeriodStatus, ElemOutcome,
		ElemAmountWon, ElemLimitSign, ElemCashOut, ElemHistory},
}

// DiagramL is the TouchBet Betting Station screen (000 §10.3.1): A with the period states
// prominent and the note acceptor buy-in; Lucky Ball when the table offers it (003 §7).
var DiagramL = Design{
	Name:   "L",
	Source: "000 §10.3.1, 003 §7",
	Elements: []Element{ElemLayout, ElemChipSelector, ElemBalance, ElemCountdown, ElemPeriodStatus, ElemOutcome,
		ElemAmountWon, ElemLimitSign, ElemCashOut, ElemHistory, ElemNoteBuyIn},
}

// DiagramU is the TouchTable Player Display (000 §11.2).
var DiagramU = Design{
	Name:   "U",
	Source: "000 §11.2",
	Elements: []Element{ElemLayout, ElemChipSelector, ElemBalance, ElemAmountBet, ElemAmountWon, ElemGameStatus,
		ElemRacetrack, ElemRemoveAll, ElemRemoveLast, ElemRepeat, ElemCashOut, ElemHelp},
}

// Designs lists the three designs.
var Designs = []Design{DiagramA, DiagramL, DiagramU}

// Conditional elements: shown only when the table has the feature.
var (
	// WhenLuckyBall must be on screen when the table offers Lucky Ball.
	WhenLuckyBall = []Element{ElemLuckyBall}
	// WhenJackpot must be on screen when the table has a jackpot.
	WhenJackpot = []Element{ElemJackpotMeter}
	// WhenPendingLimits must be on screen while a higher minimum is announced.
	WhenPendingLimits = []Element{ElemPendingMinimum}
)
