// Package msg holds what the terminal tells the player: a message in English with its
// arguments, so the screen can say it in the player's language. The terminal's logic (app/)
// never imports Fyne or its translator; the screen translates Key and formats Args.
package msg

import (
	"errors"
	"fmt"
)

// Msg is one thing to tell the player. Key is the English text with fmt verbs, and the key its
// translations are found by; Args fill the verbs (a Msg among them is said first, in the same
// language). The zero Msg says nothing.
type Msg struct {
	Key  string
	Args []any
}

// New returns the message key with its arguments.
func New(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// IsZero reports whether m says nothing.
func (m Msg) IsZero() bool { return m.Key == "" }

// Equal reports whether m and o say the same: the same key and arguments (compared as fmt
// prints them, since arguments are values of any type, a Msg among them).
func (m Msg) Equal(o Msg) bool {
	return m.Key == o.Key && len(m.Args) == len(o.Args) && fmt.Sprint(m.Args...) == fmt.Sprint(o.Args...)
}

// String is the message in English.
func (m Msg) String() string { return m.Format(func(key string) string { return key }, nil) }

// Format says m with translate for every key (m's and any Msg argument's), and render, if not
// nil, for the other arguments: it returns the text of an argument and true, or false to
// format it as fmt would.
func (m Msg) Format(translate func(string) string, render func(any) (string, bool)) string {
	if m.IsZero() {
		return ""
	}
	if len(m.Args) == 0 {
		return translate(m.Key)
	}
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		args[i] = a
		if sub, ok := a.(Msg); ok {
			args[i] = sub.Format(translate, render)
		} else if render != nil {
			if s, ok := render(a); ok {
				args[i] = s
			}
		}
	}
	return fmt.Sprintf(translate(m.Key), args...)
}

// Error is a refusal to tell the player: an error whose text is a Msg.
type Error struct{ Msg Msg }

func (e *Error) Error() string { return e.Msg.String() }

// Err returns an error that tells the player key, with its arguments. Declared once as a
// variable it is a sentinel for errors.Is.
func Err(key string, args ...any) error { return &Error{New(key, args...)} }

// Of is what to tell the player about err: its message if it carries one, otherwise the
// error's own text (from the table server, say) after a translated "refused".
func Of(err error) Msg {
	if err == nil {
		return Msg{}
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return New("Refused: %s", err.Error())
}
