// Package id003 is the JCM ID-003 serial protocol of note acceptors: its frames, their CRC and a
// streaming frame reader that survives line noise. The host driver and the device emulator both
// speak it through this package, so they cannot disagree on a byte.
//
// A frame is SYNC (0xFC), LNG — the length of the whole frame, SYNC and CRC included — a command
// or status byte, its data, and a CRC-16/KERMIT (polynomial 0x1021 reflected, initial value 0,
// no final XOR) over SYNC through the data, sent low byte first. The line runs at 9600 baud, 8
// data bits, even parity, 1 stop bit.
//
// Because driver and emulator share this package, both were checked against public ID-003
// descriptions written independently of it (issue 19): an open-source Python host library for
// JCM validators (its frame builder, table-driven CRC-CCITT/Kermit sent low byte first, 9600 8E1,
// command, status, reject and failure codes, and its escrow → STACK-1 → ACK, VEND VALID → host
// ACK frame → STACKED sequence) and an open-source C# ID-003 client (the same framing and CRC,
// the host's ACK sent as a frame with no reply). They agree with this package; the two reject
// codes they name that it did not (0x98, 0x9B) are now named.
//
// # Protocol document
//
// The protocol is JCM's (Japan Cash Machine): its "ID-003" specification of the serial interface
// of its note acceptors. JCM gives it to machine makers rather than publishing it, and this
// project has no copy: it does not claim to follow a given revision of it. What it follows is the
// behaviour that the public descriptions named above agree on: the frame, the CRC, the line
// settings, the commands and statuses of protocol.go, the escrow and VEND VALID handshakes. Before
// a cabinet goes to a laboratory, the frames should be checked against the revision of the
// specification that the acceptor's firmware implements (its version string is read at start-up,
// noteacceptor.Acceptor.Version) and that revision written here.
package id003
