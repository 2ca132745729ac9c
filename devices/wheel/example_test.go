package wheel_test

import (
	"bytes"
	"fmt"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/wheel"
)

// Reading a spin off the line: the frames a double-zero wheel sends, with noise between them,
// parsed against the table's wheel. The two sensors agreeing on 00 make an outcome.
func ExampleReader() {
	var line bytes.Buffer
	line.Write(wheel.MustEncode(wheel.S("BL", "7", "CCW")))
	line.WriteString("\x00noise")
	line.Write(wheel.MustEncode(wheel.S("BD", "7", "12")))
	line.Write(wheel.MustEncode(wheel.S("WN", "7", "00", "00")))
	r := wheel.NewReader(&line)
	for {
		s, err := r.Next()
		if err != nil {
			if _, ok := err.(*wheel.NoiseError); ok {
				fmt.Println("dropped:", err)
				continue
			}
			break
		}
		e, err := wheel.Parse(s, roulette.DoubleZero)
		if err != nil {
			fmt.Println("refused:", err)
			continue
		}
		fmt.Println(e)
		if n, ok := e.Number(); ok {
			fmt.Println("outcome:", n)
		}
	}
	// Output:
	// wheel: game 7: ball launched CCW
	// dropped: wheel: dropped 6 bytes "\x00noise": wheel: malformed sentence: bytes outside a frame
	// wheel: game 7: ball about to drop after 12 revolutions
	// wheel: game 7: sensor 1 read 00, sensor 2 read 00
	// outcome: 00
}
