// Package idpad is the player-ID pad: the small touch plate (and card reader) beside each
// player's place at the layout. A touch on the layout counts as that player's only while their
// pad is touched, and a player card identifies them when the profile asks for one.
//
// No industry standard exists, so this package defines the protocol, the host driver and (in
// devices/emulator) the device.
//
// # Line and frames
//
// 19200 baud, 8N1. A frame is
//
//	A5 LEN TYPE SEQ DATA… CRC-lo CRC-hi
//
// LEN counts the whole frame (6 to 64 bytes); the CRC is CRC-16/KERMIT over A5 through the data,
// low byte first — the same CRC as ID-003.
//
// Device to host (pad ids are 1–16):
//
//	01 TOUCH ON   pad               02 TOUCH OFF  pad
//	03 CARD IN    pad, digits (1–20) 04 CARD OUT   pad
//	10 HEARTBEAT  touched (2 bytes, bit n-1 = pad n, big-endian), cards present (2 bytes)
//	11 STATUS     as HEARTBEAT, the answer to a status request
//	12 VERSION    ASCII
//
// Host to device:
//
//	80 ACK        the SEQ acknowledged
//	81 STATUS request               82 VERSION request
//
// Events (01–04) carry a SEQ from 1 to 255 (wrapping past 0) and are sent again every 200 ms
// until the host acknowledges them, in order: a lost frame delays an event, never drops it. A
// repeated SEQ is acknowledged again and otherwise ignored. Heartbeats go every 500 ms with the
// SEQ of the latest event sent, or 0 before the first event since power-up (after a power-up
// the pad sends a heartbeat before any event, so the host forgets the old numbers);
// a host that hears nothing for 1.5 s treats every pad as untouched until the pad is heard again,
// and then takes the pad state from the heartbeat.
//
// # Protocol document
//
// This package is the protocol document: no maker's specification exists for the player-ID pad,
// and the description above is revision 1, the only one. The host driver (idpad.go) and the
// device emulator (devices/emulator/idpad.go) both follow it, and a change to a byte of it is a
// new revision, written here with what changed.
package idpad
