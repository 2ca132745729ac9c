package msg

import (
	"errors"
	"fmt"
	"testing"
)

func TestFormat(t *testing.T) {
	zh := map[string]string{"no more bets": "停止下注", "credited %s": "已入账 %s", "%v: %s": "%v：%s", "below the minimum": "低于最低限额"}
	translate := func(s string) string { return zh[s] }
	cases := []struct {
		m             Msg
		english, said string
	}{
		{Msg{}, "", ""},
		{New("no more bets"), "no more bets", "停止下注"},
		{New("credited %s", "5.00"), "credited 5.00", "已入账 5.00"},
		{New("%v: %s", 17, New("below the minimum")), "17: below the minimum", "17：低于最低限额"},
	}
	for _, c := range cases {
		if got := c.m.String(); got != c.english {
			t.Errorf("%#v in English: %q, want %q", c.m, got, c.english)
		}
		if got := c.m.Format(translate, nil); got != c.said {
			t.Errorf("%#v translated: %q, want %q", c.m, got, c.said)
		}
	}
	// render takes over the arguments it knows.
	type bet int
	m := New("%v and %v", bet(1), 2)
	got := m.Format(func(s string) string { return s }, func(a any) (string, bool) {
		if b, ok := a.(bet); ok {
			return fmt.Sprintf("bet #%d", b), true
		}
		return "", false
	})
	if got != "bet #1 and 2" {
		t.Errorf("rendered: %q", got)
	}
}

func TestErrors(t *testing.T) {
	sentinel := Err("touch your player pad to bet")
	wrapped := fmt.Errorf("place: %w", sentinel)
	if !errors.Is(wrapped, sentinel) {
		t.Fatal("a wrapped sentinel is not found by errors.Is")
	}
	if got := Of(wrapped); got.Key != "touch your player pad to bet" {
		t.Errorf("Of(wrapped) = %#v", got)
	}
	if got := Of(errors.New("rpc error: table closed")); got.Key != "Refused: %s" || got.String() != "Refused: rpc error: table closed" {
		t.Errorf("Of(plain) = %#v %q", got, got.String())
	}
	if !Of(nil).IsZero() {
		t.Error("Of(nil) says something")
	}
	if sentinel.Error() != "touch your player pad to bet" {
		t.Errorf("Error() = %q", sentinel.Error())
	}
}
