// Package wheel is the roulette wheel's sensor driver: the winning-number reader of a live wheel
// and the controller of an automated one, on an RS-232 line. It tells the table the wheel's speed
// and direction, the ball launched, the ball about to drop (001 §5.1.3: the wagering period ends
// at once), the number read by each of the wheel's two winning-number sensors (000 §10.2), and
// the faults after which no outcome may be taken from the wheel (004 §8.1); on an automated
// wheel it launches the ball and raises the cap.
//
// Wheel controllers speak framed ASCII sentences with a checksum and an echo of every command
// (for example `BR|KGO|<ms>|CRC|ST`). No standard exists, so this package defines its own
// protocol modelled on such controllers — the ATS wheel protocol, version 1 — and devices/emulator
// speaks its device side (devemu wheel).
//
// # Line
//
// 19200 baud, 8N1, no flow control (Baud says why not 9600).
//
// # Frame
//
//	STX  BODY  ETX  C C C C  CR LF
//	02   …     03   hex CRC  0D 0A
//
// BODY is one to 64 printable ASCII bytes (0x20–0x7E): fields separated by '|' (0x7C). The first
// field is the sentence's type, two capital letters; no field is empty ('-' stands for "none").
// CCCC is CRC-16/KERMIT (devices/internal/crc16, the CRC of ID-003 and the ID pad) over BODY
// only, as four upper-case hexadecimal digits, most significant first. A whole frame is at most
// 72 bytes. The sentence `HB|37|A` (CRC 18D3) is the 15 bytes
//
//	02  48 42 7C 33 37 7C 41  03  31 38 44 33  0D 0A
//	STX H  B  |  3  7  |  A   ETX 1  8  D  3   CR LF
//
// A receiver skips every byte outside a frame (line noise), drops a frame that is cut short by a
// new STX, longer than 72 bytes, badly formed or with a wrong CRC, and reports each such drop.
//
// # Fields
//
//	<game>   the wheel's spin counter, 1–99999 (wrapping to 1); 0 in a fault outside a spin
//	<dir>    CW (clockwise, seen from above) or CCW
//	<rpm>    wheel speed, whole revolutions a minute, 0–99
//	<revs>   revolutions the ball has made on the track so far, 0–999
//	<n>      a compartment: 0–36, 00 (a double-zero wheel only, distinct from 0), or - (no read)
//	<ms>     blower time in milliseconds, 100–5000
//
// # Wheel to host
//
//	HB|<37|38>|<A|M>       heartbeat, every 500 ms: compartments (37 single zero, 38 double
//	                       zero) and A (automated wheel) or M (manual wheel with sensors)
//	SP|<rpm>|<dir>         the wheel's speed and direction, on a change and every second
//	BL|<game>|<dir>        the ball is launched (by the blower or the dealer's hand) in <dir>
//	BD|<game>|<revs>       the ball is about to drop into a compartment
//	WN|<game>|<n1>|<n2>    the ball has come to rest: what sensor 1 and sensor 2 read
//	FT|<game>|<code>|<d>   a fault, with code and detail <d>:
//	                         NB -   no ball seen after a launch
//	                         NR -   the wheel was not rotating when the ball was launched (8.1(a))
//	                         SW -   the ball was launched in the wheel's direction (8.1(b))
//	                         RV <r> the ball dropped after <r> < 4 revolutions (8.1(c))
//	                         OW -   the ball left the wheel (8.1(e))
//	                         DS <s> sensor <s> (1 or 2) is dirty: reads are unreliable
//	                         LS <s> sensor <s> (1 or 2) is lost: no signal
//	CD|<LB|RC>|<OK|NO>     a command is done (OK) or refused (NO: a manual wheel, a ball in play)
//
// # Host to wheel (automated wheels)
//
//	LB|<ms>                launch the ball, the blower on for <ms>
//	RC                     raise the cap (the ball lift), so the dealer can take the ball out
//
// The wheel echoes every command it receives, byte for byte, as soon as it has it, and reports
// it done or refused with CD when it is. A command that is not echoed within 500 ms is taken as
// not received.
//
// # What the driver adds
//
// The driver
//   - checks every value against the wheel the table is configured with (a 00 from a
//     single-zero wheel is an error, never a number);
//   - reports a disagreement of the two sensors, or a sensor that read nothing, as a fault
//     (FaultDisagree): the wheel does not get to decide that its sensors agree;
//   - reports a line silent for 1.5 s (three heartbeats) as a fault (FaultLineLost) until the
//     wheel is heard again;
//   - while the wheel's heartbeat says it is not the table's kind of wheel, reports its reads
//     as that fault (FaultWrongWheel), not as results;
//   - reports a speed only when it changes;
//   - discards, when it starts, whatever the line holds from before (a drop or a number left
//     from an earlier run is not this spin's);
//   - runs one command at a time (a second is refused with ErrBusy, not queued behind a ball
//     launch).
//
// Every event carries the wheel's <game>, so the table ties a drop and a result to the launch
// they follow, and can refuse a result of a spin it did not see start.
package wheel
