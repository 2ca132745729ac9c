// Package printer drives a casino ticket printer that speaks TCL, the ASCII template command
// language of TITO printers (FutureLogic/JCM GEN2 and GEN5, TransAct Epic 950, Nanoptix
// PayCheck), and holds the cash-out ticket's layout.
//
// # Where this comes from
//
// TCL is the printer makers' protocol, not this project's. What follows was settled against
// public descriptions of it, each point confirmed by more than one of them: the TCL printer
// driver of an open-source electronic gaming machine platform (its GEN2/Nanoptix classes and
// protocol constants), an open-source printer-side emulator of a Nanoptix PayCheck 4 speaking TCL,
// a technician's status-decoding tool for GEN2 printers, host code of a slot cabinet driving a
// GEN2, and a label-printer integration guide that documents the same region/template syntax.
// Where they differ, the choice and the reason are written beside the code.
//
// # Commands
//
// Commands are ASCII between carets, fields each followed by '|': "^P|1|1|field|…|^". There is no
// escape this package relies on, so a field may not hold '^', '|', '~' (an escape character on
// some printers) or a control character; Encode refuses such text rather than garble a ticket.
//
//	^C|^                      clear the "online" error flags (command, print-data and library
//	                          reference errors) and the power-up flag
//	^S|^                      status request, answered like ENQ (some printers answer only this)
//	^R|id|mem|x0|y0|dx|dy|unused|rot|just|object|m1|m2|objattr|prattr|data|^
//	                          define print region id (one character) in memory mem (R = RAM, F =
//	                          flash): start and size in dots along the dot axis (x, across the
//	                          paper) and the paper axis (y); rotation 0 right, 1 down, 2 left,
//	                          3 up; justification 0 left, 1 centre, 2 right; object a font number
//	                          or a barcode letter (l = Interleaved 2 of 5); m1/m2 magnifications
//	                          (for a barcode, narrow and wide element in dots); prattr 0 takes the
//	                          data from the print command, data then empty
//	^R|id|DR|^, ^R|$|DR|^     delete one region, every region
//	^T|id|mem|dx|dy|r1|…|rn|^ define template id: its size in dots (dot axis, paper axis) and the
//	                          regions it prints, in the order the print command's fields fill them
//	^P|t|copies|f1|…|fn|^     print template t with the fields
//	^f|I|^                    feed the paper to the next top of form
//
// A printer refuses a malformed definition or print by raising an error flag, never by a reply:
// a region or template it cannot take sets "print region data error" (or "command error" for a
// command it cannot read), a template naming an unknown region or a print naming an unknown
// template sets "library reference error".
//
// # Status
//
// The host sends ENQ (0x05), a real-time request answered even while a job prints; "^S|^" asks
// the same through the command stream. The extended status reply is 29 bytes at fixed places:
//
//	*S|a|fffffffff|1|2|3|4|5|Pt|*
//
// a the unit address, fffffffff the 9-character firmware id, 1–5 the status bytes, t the last
// template printed — a space before the first print since power-up (other printers send other
// non-digits; any byte is taken). A status byte always has bit 6 set (0x40: '@' when no flag is
// up), which is how a misframed reply is told from a real one; bit 7 is ignored (one emulator puts
// a journal flag there). Because a status byte can itself be '|' or '*', a reply is read by
// position, never split on '|'. Some printers answer with a 25-byte standard status of three
// status bytes; it is parsed (Extended false) but cannot follow a job.
//
//	s1: 01 voltage error     02 head error         04 paper out           08 head up (platen open)   10 system error      20 busy
//	s2: 01 job memory full   02 buffer overflow    04 library load error  08 print region data error 10 library ref error 20 temperature
//	s3: 01 missing supply    02 offline            04 flash error         08 paper in chute          10 library corrupt   20 command error
//	s4: 01 paper low         02 paper jam          04 cutter error        08 journal printing
//	s5: 01 reset/power up    02 barcode data accessed 04 chassis open     08 XOFF                    10 top of form       20 validation done
//
// A job is followed by these flags: the printer goes busy (clearing validation done and top of
// form), sets validation done once the validation number is on the paper, drops busy when the
// ticket is out, and sets top of form when the next form is in place. The host counts a ticket
// printed only after busy → validation done → not busy → top of form.
//
// # CRC
//
// TCL messages carry no checksum. The only CRC of the protocol is the firmware CRC query
// ("^G|…|^", answered in 7 bytes after up to 40 s), which this driver does not use.
//
// # Protocol document
//
// TCL is documented by FutureLogic (now part of JCM Global) in the programmer's manuals of its
// GEN2 and GEN5 printers, and by the makers of printers that speak it too (TransAct, Nanoptix).
// Those manuals go to machine makers, and this project has no copy: it does not claim a revision
// of any of them. It follows the subset above, each point confirmed by more than one of the public
// sources named under "Where this comes from" (issue 19); a laboratory should be given the manual
// and revision of the printer model a cabinet ships with, and the status bytes and region fields
// checked against it.
package printer
