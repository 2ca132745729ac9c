package precommit

import (
	"testing"
	"time"
)

// FuzzLimitChangesAndSlips drives one card through any sequence of limit changes, slips
// (stakes of holds), settlements, voids and the passing of time, by the rules the stores run
// (roll, setLimits, stake, settle), and checks what SPEC §10 promises whatever the order:
// never a stake taken that puts the net loss past the loss limit in force, none after the time
// is up, during a bar or a break, none that takes the play of the last 24 hours or 7 days to
// its limit (the day's break, the weekly cap: set low here so that a few ops reach them), a
// raise never in force before its cooling-off, the reservation always the sum of the open
// holds, and the spans of play in order, apart, and within the week.
func FuzzLimitChangesAndSlips(f *testing.F) {
	f.Add([]byte{0, 10, 1, 1, 50, 1, 2, 80, 2, 1, 0, 3, 200, 1, 2, 30, 0, 20, 4, 0})
	f.Add([]byte{0, 200, 1, 0, 255, 3, 255, 3, 255, 1, 0, 90, 0, 1, 1, 95, 2, 0, 10})
	f.Add([]byte{1, 0, 10, 0, 5, 1, 1, 5, 3, 100, 0, 50, 1, 3, 40, 4, 3})
	// Two stretches of continuous play reach the day's play, within a day's ops.
	seed := []byte{0, 200, 7}
	for stretch := range 3 {
		for k := range 7 {
			seed = append(seed, 1, 0, byte(stretch*10+k+1), 3, 0, 9)
		}
		seed = append(seed, 2, 0, 0, 4, 0, 0, 3, 0, 16)
	}
	f.Add(seed)
	set := DefaultSettings()
	set.BreakAfter, set.DayPlay, set.WeekPlay = time.Hour, 90*time.Minute, 2*time.Hour
	f.Fuzz(func(t *testing.T, ops []byte) {
		now := t0
		c := Card{ID: "C1", State: Registered}
		holds := map[byte]int64{}  // open holds by name
		closedH := map[byte]bool{} // settled holds
		next := func() byte {
			if len(ops) == 0 {
				return 0
			}
			b := ops[0]
			ops = ops[1:]
			return b
		}
		for len(ops) > 0 {
			op, a, b := next()%5, next(), next()
			c.roll(now, set)
			switch op {
			case 0: // limits
				l := Limits{Loss: int64(a) * 100, Time: time.Duration(b%8+1) * 30 * time.Minute, Bar: BarDay}
				if b&0x80 != 0 {
					l.Bar = BarWeek
				}
				before := c.Limits
				err := c.setLimits(l, now, set)
				if (l.Loss <= 0) != (err != nil) {
					t.Fatalf("limits %+v: %v", l, err)
				}
				if err == nil && before.Set() && c.Limits.Loss > before.Loss {
					t.Fatalf("a raise from %d to %d in force at once", before.Loss, c.Limits.Loss)
				}
				if err == nil && !c.NextFrom.IsZero() && !c.NextFrom.Equal(now.Add(set.CoolingOff)) {
					t.Fatalf("a raise in force from %v, asked at %v", c.NextFrom, now)
				}
			case 1: // a slip of hold a%4 at b×10 cents
				h, amount := a%4, int64(b)*10
				if closedH[h] {
					continue
				}
				old := holds[h]
				barred := now.Before(c.BarredUntil) || now.Before(c.BreakUntil)
				up := c.TimeUp()
				r := c.stake(old, amount, now, set)
				if r == nil {
					holds[h] = amount
					if amount > old {
						if barred || (!up.IsZero() && !now.Before(up)) || !c.Limits.Set() {
							t.Fatalf("stake %d taken barred %v, time up %v (now %v), limits %+v", amount, barred, up, now, c.Limits)
						}
						if c.NetLoss() > c.Limits.Loss {
							t.Fatalf("stake %d took the net loss to %d past the limit %d", amount, c.NetLoss(), c.Limits.Loss)
						}
						if day, week := c.PlayIn(dayWindow, now, set), c.PlayIn(Week, now, set); day >= set.DayPlay || week >= set.WeekPlay {
							t.Fatalf("stake %d taken with %v of play in 24 hours, %v in 7 days", amount, day, week)
						}
					}
				} else if amount <= old {
					t.Fatalf("a lower slip refused: %v", r)
				}
			case 2: // settle hold a%4 returning b×20 cents
				h := a % 4
				if closedH[h] {
					continue
				}
				c.Reserved -= holds[h]
				c.settle(holds[h], int64(b)*20, now)
				delete(holds, h)
				closedH[h] = true
			case 3: // time passes: b minutes, or b hours with a's top bit
				d := time.Duration(b) * time.Minute
				if a&0x80 != 0 {
					d = time.Duration(b) * time.Hour
				}
				now = now.Add(d)
			case 4: // a new round: the settled holds' names are free again
				closedH = map[byte]bool{}
			}
			for i, sp := range c.Spans {
				if sp.To.Before(sp.From) || i > 0 && sp.From.Before(c.Spans[i-1].To) || !sp.To.After(now.Add(-Week)) && op != 3 {
					t.Fatalf("spans %v at %v", c.Spans, now)
				}
			}
			var sum int64
			for _, v := range holds {
				sum += v
			}
			if sum != c.Reserved || c.Reserved < 0 {
				t.Fatalf("reserved %d, open holds %d", c.Reserved, sum)
			}
		}
	})
}
