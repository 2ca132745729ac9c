package ledger

import (
	"strings"
	"testing"
)

func TestRewritePlaceholders(t *testing.T) {
	for q, want := range map[string]string{
		`SELECT a FROM t WHERE b = ? AND c = ?`: `SELECT a FROM t WHERE b = $1 AND c = $2`,
		`SELECT '?', "?" FROM t WHERE x = ?`:    `SELECT '?', "?" FROM t WHERE x = $1`,
		`SELECT 'it''s ?' WHERE ? = ''`:         `SELECT 'it''s ?' WHERE $1 = ''`,
		"SELECT 1 -- why?\nWHERE a = ?":         "SELECT 1 -- why?\nWHERE a = $1",
		`SELECT ?2, ?1, ?`:                      `SELECT $2, $1, $3`,
		`INSERT INTO t VALUES (?,?,?)`:          `INSERT INTO t VALUES ($1,$2,$3)`,
		`SELECT a - ? FROM t`:                   `SELECT a - $1 FROM t`,
		`'unterminated ?`:                       `'unterminated ?`,
	} {
		if got := rewrite(q); got != want {
			t.Errorf("%q -> %q, want %q", q, got, want)
		}
	}
}

// The placeholder rewrite is a small SQL lexer: it changes placeholders only — every ? that
// went became a $, and the query's other characters are as they were.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{
		`SELECT a FROM t WHERE b = ? AND c = ?`,
		`SELECT '?', "?" FROM t WHERE x = ? -- ?` + "\n" + `AND y = ?`,
		`SELECT 'it''s ?' WHERE ? = ''`,
		`'unterminated ?`, `-- only ?`, `??`, ``, `?0000000`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		r := rewrite(q)
		if !strings.Contains(q, "?") && r != q {
			t.Fatalf("changed a query without placeholders: %q -> %q", q, r)
		}
		gone := strings.Count(q, "?") - strings.Count(r, "?")
		came := strings.Count(r, "$") - strings.Count(q, "$")
		if gone != came || gone < 0 {
			t.Fatalf("%d placeholders went, %d $ came: %q -> %q", gone, came, q, r)
		}
		strip := func(s string) string {
			return strings.Map(func(c rune) rune {
				if c == '?' || c == '$' || (c >= '0' && c <= '9') {
					return -1
				}
				return c
			}, s)
		}
		if strip(q) != strip(r) {
			t.Fatalf("rewrite changed more than placeholders: %q -> %q", q, r)
		}
		if rewrite(q) != r {
			t.Fatal("the cached rewrite differs")
		}
	})
}

// SchemaOf makes a schema name of any table id: table_ and [a-z0-9_] only.
func FuzzSchemaOf(f *testing.F) {
	for _, s := range []string{"T1", "t-2", `x"; DROP SCHEMA floor; --`, "Ünïcode", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		s := SchemaOf(id)
		if !strings.HasPrefix(s, "table_") {
			t.Fatalf("%q -> %q", id, s)
		}
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
				t.Fatalf("%q -> %q holds %q", id, s, r)
			}
		}
	})
}
