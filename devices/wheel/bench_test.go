package wheel_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/wheel"
)

// BenchmarkReader measures sentence parsing throughput on a stream of a spin's sentences.
func BenchmarkReader(b *testing.B) {
	var stream []byte
	for _, s := range []wheel.Sentence{wheel.S("HB", "37", "A"), wheel.S("SP", "24", "CW"), wheel.S("BL", "41", "CCW"),
		wheel.S("BD", "41", "12"), wheel.S("WN", "41", "17", "17")} {
		stream = append(stream, wheel.MustEncode(s)...)
	}
	for len(stream) < 64<<10 {
		stream = append(stream, stream...)
	}
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := wheel.NewReader(bytes.NewReader(stream))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}

// BenchmarkDropToEvent measures, over a pseudo-terminal, the time from the wheel's sensor
// seeing the ball about to drop (the emulator sending BD) to the driver's Dropping event: the
// driver's share of 001 §5.1.3's "at once". In the paced run the emulator sends at the line's
// real byte time (19200 baud), as a wheel on a real line does. Reports p50 and p99 in ms.
func BenchmarkDropToEvent(b *testing.B) {
	for _, paced := range []bool{false, true} {
		name := "pty"
		ecfg := emulator.WheelConfig{Wheel: roulette.SingleZero, Heartbeat: time.Hour}
		if paced {
			name, ecfg.Pace = "pty-19200-baud", emulator.Pace(wheel.Baud)
		}
		b.Run(name, func(b *testing.B) {
			emu, d := overPTY(b, ecfg, wheel.Config{Silence: time.Hour})
			heard(b, d, func() error { return emu.Spin(25, wheel.Clockwise) })
			if err := emu.Spin(25, wheel.Clockwise); err != nil { // the wheel may have been heard by its first heartbeat
				b.Fatal(err)
			}
			var lat []time.Duration
			for b.Loop() {
				emu.Launch(0)
				until(b, d, "launch", kind(wheel.Launched))
				start := time.Now()
				emu.Drop(12)
				until(b, d, "drop", kind(wheel.Dropping))
				lat = append(lat, time.Since(start))
				emu.Read("17", "17")
				until(b, d, "result", kind(wheel.Result))
			}
			slices.Sort(lat)
			ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
		})
	}
}
