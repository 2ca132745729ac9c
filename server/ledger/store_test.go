package ledger

import "testing"

// The same ledger on both stores: money in, a reopen, conservation and the seal verified.
func TestBothStoresOpenCreditReopen(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		l := s.open(t)
		credit(t, l, "T01", 5000)
		l.Close()
		l = s.open(t)
		c, err := l.Conserve(t.Context())
		if err != nil || !c.Holds() || c.Balances != 5000 {
			t.Fatalf("conservation after reopen: %v %v", c, err)
		}
		if n, err := l.Verify(t.Context()); err != nil || n == 0 {
			t.Fatalf("verify: %d %v", n, err)
		}
		if l.Dialect() != s.name {
			t.Fatalf("dialect %s on %s", l.Dialect(), s.name)
		}
	})
}
