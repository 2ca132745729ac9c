// Package noteacceptor is the host driver of a JCM ID-003 note acceptor: it starts the acceptor,
// polls it, asks the app what to do with each note or ticket in escrow, and reports the credit
// point, rejections, faults and power-up states so the app can journal every money movement
// before it acts on it.
//
// The money path: ESCROW → the app decides (Handler.Escrow; for a ticket it asks the server to
// hold it first) → STACK-1 → STACKING → VEND VALID → Handler.Credit (the app journals and credits)
// → ACK → STACKED. The driver acknowledges VEND VALID only after Credit returned nil, so a crash
// between the two leaves the acceptor repeating VEND VALID, never a credit the journal lacks. A
// power cut mid-stack comes back as "power up with bill in stacker": the driver reports it and
// the app settles it from its journal — credit the note it sent to the stacker if it has not
// already — so a stacked note is credited exactly once. A jam in the stacker is cleared by an
// attendant, and the acceptor comes back the same way, the note still in the stacker's path.
// A note sent to the stacker whose fate the acceptor never says (no credit point, no
// returning, back to idle or powered up empty) is never reported returned: it is Unresolved,
// for the app to keep open and the attendant to settle from the cash box.
//
// # Protocol document
//
// The acceptor speaks JCM's ID-003 protocol; its bytes are package id003's, whose doc.go names
// the document, what revision is (and is not) claimed, and what the bytes were checked against.
// This package adds the host's side of the conversation: the start-up sequence (reset, the
// settings, the currency table and version read), the polling, the escrow and VEND VALID
// handshakes, and power-up recovery.
package noteacceptor
