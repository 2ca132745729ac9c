package ledger

import (
	"fmt"
	"strings"
)

// Many rows to a statement, for the settlement of a round: 1,000 terminals read one account
// and write one account and one settlement each. One statement a row was 4,000 statements in
// the transaction every terminal's Settled event waits for; on PostgreSQL each is a round trip
// to the database. On SQLite the statements are cut into batches of fixed sizes (batches), so
// a handful of statement texts serve every round. On PostgreSQL each is one statement whatever
// the number of rows, each column an array (unnest), as the seal's own writes are: a VALUES
// list of 256 rows is 2,304 parameters to bind and a statement to plan each time, and the
// eight of them took 30 of the settlement's 100 ms there.

// AccountRow is a terminal's account as the settlement reads it.
type AccountRow struct {
	Balance int64
	Open    bool
	Epoch   int64
}

// Accounts reads the accounts of terminals; a terminal with none is absent from the result
// (Account and Epoch read it as balance 0, closed, epoch 0).
func (t *Tx) Accounts(terminals []string) (map[string]AccountRow, error) {
	out := make(map[string]AccountRow, len(terminals))
	rest := terminals
	sizes := batches(len(rest))
	if t.l.dialect == dialectPostgres && len(rest) > 0 {
		sizes = []int{len(rest)} // one statement, the keys an array (pgArrays)
	}
	for _, size := range sizes {
		args := make([]any, size)
		for i, id := range rest[:size] {
			args[i] = id
		}
		where := `terminal IN (` + valueList(size, "?") + `)`
		if t.l.dialect == dialectPostgres {
			args = []any{rest[:size]}
			where = `terminal = ANY(CAST(? AS text[]))`
		}
		q := `SELECT terminal, balance, open, epoch FROM accounts WHERE ` + where
		rest = rest[size:]
		rows, err := t.query(q, args...)
		if err != nil {
			return nil, fmt.Errorf("ledger: accounts: %w", err)
		}
		for rows.Next() {
			var id string
			var a AccountRow
			if err := rows.Scan(&id, &a.Balance, &a.Open, &a.Epoch); err != nil {
				rows.Close()
				return nil, fmt.Errorf("ledger: accounts: %w", err)
			}
			out[id] = a
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("ledger: accounts: %w", err)
		}
		// The settlement starts from these balances: checked against their seals now, in
		// the same batch (sealread.go).
		if err := t.checkRead("accounts", where, args...); err != nil {
			return nil, err
		}
	}
	// An account the read did not find must not have a seal (deleted behind the server's
	// back, it would start again from zero): one look-up each, only for those missing.
	for _, id := range terminals {
		if _, ok := out[id]; !ok {
			if err := t.checkGone("accounts", id); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// AccountBalance is a terminal's balance and open flag to write.
type AccountBalance struct {
	Terminal string
	Balance  int64
	Open     bool
}

// SetAccounts is SetAccount for many terminals, each at most once.
func (t *Tx) SetAccounts(as []AccountBalance) error {
	for _, a := range as {
		if a.Balance < 0 {
			return fmt.Errorf("ledger: account %s: balance %d below zero", a.Terminal, a.Balance)
		}
	}
	if t.l.dialect == dialectPostgres {
		if len(as) == 0 {
			return nil
		}
		ids, bals, open := make([]string, len(as)), make([]int64, len(as)), make([]int64, len(as))
		for i, a := range as {
			ids[i], bals[i] = a.Terminal, a.Balance
			if a.Open {
				open[i] = 1
			}
		}
		if _, err := t.exec(`INSERT INTO accounts(terminal, balance, open)
			SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]))
			ON CONFLICT(terminal) DO UPDATE SET balance = excluded.balance, open = excluded.open`, ids, bals, open); err != nil {
			return fmt.Errorf("ledger: accounts: %w", err)
		}
		return nil
	}
	for _, size := range batches(len(as)) {
		args := make([]any, 0, 3*size)
		for _, a := range as[:size] {
			args = append(args, a.Terminal, a.Balance, a.Open)
		}
		as = as[size:]
		if _, err := t.exec(`INSERT INTO accounts(terminal, balance, open) VALUES `+valueList(size, "(?,?,?)")+`
			ON CONFLICT(terminal) DO UPDATE SET balance = excluded.balance, open = excluded.open`, args...); err != nil {
			return fmt.Errorf("ledger: accounts: %w", err)
		}
	}
	return nil
}

// PutSettlements is PutSettlement for many settlements, each (round, terminal, generation) at
// most once.
func (t *Tx) PutSettlements(ss []Settlement) error {
	if t.l.dialect == dialectPostgres {
		return t.pgPutSettlements(ss)
	}
	for _, size := range batches(len(ss)) {
		args := make([]any, 0, 9*size)
		for _, s := range ss[:size] {
			args = append(args, s.Round, s.Terminal, s.Generation, s.Staked, s.Returned, s.Recognised, s.Outcome, s.Reversed, s.Epoch)
		}
		ss = ss[size:]
		if _, err := t.exec(`INSERT INTO settlements(round, terminal, generation, staked, returned, recognised, outcome, reversed, epoch) VALUES `+
			valueList(size, "(?,?,?,?,?,?,?,?,?)")+`
			ON CONFLICT(round, terminal, generation) DO UPDATE SET reversed = excluded.reversed`, args...); err != nil {
			return fmt.Errorf("ledger: settlements: %w", err)
		}
	}
	return nil
}

// pgPutSettlements is PutSettlements on PostgreSQL: one statement, each column an array.
func (t *Tx) pgPutSettlements(ss []Settlement) error {
	if len(ss) == 0 {
		return nil
	}
	n := len(ss)
	rounds, terms, outcomes := make([]string, n), make([]string, n), make([]string, n)
	gens, staked, returned, recog, reversed, epochs := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i, s := range ss {
		rounds[i], terms[i], outcomes[i] = s.Round, s.Terminal, s.Outcome
		gens[i], staked[i], returned[i], epochs[i] = int64(s.Generation), s.Staked, s.Returned, s.Epoch
		if s.Recognised {
			recog[i] = 1
		}
		if s.Reversed {
			reversed[i] = 1
		}
	}
	if _, err := t.exec(`INSERT INTO settlements(round, terminal, generation, staked, returned, recognised, outcome, reversed, epoch)
		SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[]),
			CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS bigint[]))
		ON CONFLICT(round, terminal, generation) DO UPDATE SET reversed = excluded.reversed`,
		rounds, terms, gens, staked, returned, recog, outcomes, reversed, epochs); err != nil {
		return fmt.Errorf("ledger: settlements: %w", err)
	}
	return nil
}

// batches splits n rows into statements of 256, 64, 16, 4 and 1 rows: few statements, and
// few distinct statement texts (the ledger prepares and keeps every text it runs).
func batches(n int) []int {
	var out []int
	for _, size := range []int{256, 64, 16, 4, 1} {
		for ; n >= size; n -= size {
			out = append(out, size)
		}
	}
	return out
}

// valueList is n copies of one, comma-separated: a statement's IN list or VALUES rows.
func valueList(n int, one string) string {
	return strings.TrimSuffix(strings.Repeat(one+",", n), ",")
}
