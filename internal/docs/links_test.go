package docs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// repoRoot is the repository's root: two folders up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// The README is a door (issue 30): every relative link and #anchor in it and in docs/ leads to a
// file, a folder or a heading that is there.
func TestEveryLinkInTheREADMEAndDocsResolves(t *testing.T) {
	root := repoRoot(t)
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("only %v: the guides under docs/ are missing", files)
	}
	broken, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
	t.Logf("%d files checked", len(files))
}

// The README is the door to the rest (issue 30): at most 250 lines, the two commands in it as
// they are run, and every page under docs/ linked from the README or from another page.
func TestTheREADMEIsADoorToEveryPage(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 250 {
		t.Errorf("README.md has %d lines, more than 250: move the detail into docs/", n)
	}
	for _, cmd := range []string{"bash packaging/run.sh", "bash packaging/test.sh"} {
		if !strings.Contains(string(b), "```sh\n"+cmd+"\n```") {
			t.Errorf("README.md lacks the command %q in a sh block of its own", cmd)
		}
	}
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	orphans, err := Orphans(root, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range orphans {
		t.Errorf("%s: no page links to it", o)
	}
}

func TestAPageNoOneLinksToIsAnOrphan(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"README.md":         "[index](docs/README.md)\n",
		"docs/README.md":    "[a](a.md) [self](README.md)\n",
		"docs/a.md":         "[back](../README.md)\n",
		"docs/lonely.md":    "[index](README.md)\n",
		"docs/only-self.md": "[me](only-self.md#top)\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Orphans(root, files)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"docs/lonely.md", "docs/only-self.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("orphans %v, want %v", got, want)
	}
}

// The checker itself: each kind of dead end a reader can meet is found, and nothing that works is
// reported.
func TestABrokenLinkOrAnchorIsFound(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", strings.Join([]string{
		"# The door",
		"[a guide](docs/guides/a.md) [its section](docs/guides/a.md#running-a-table-by-hand-tableserver)",
		"![picture](shot.png) [a folder](docs/guides/) [mail](mailto:x@example.com) [web](https://example.com/x)",
		"[gone](docs/guides/gone.md)",
		"[no such heading](docs/guides/a.md#nowhere)",
		"`[in a code span](missing.md)`",
		"```sh",
		"[in a code block](missing.md)",
		"```",
		"[here](#the-door) [not here](#elsewhere)",
		"[out](../outside.md) [absolute](/README.md)",
		"[anchor on a picture](shot.png#top)",
		"[ref]: docs/guides/missing-too.md",
		`<img src="missing.png">`,
	}, "\n"))
	write("shot.png", "")
	write("docs/guides/a.md", "# Running a table by hand (tableserver)\n\n## Twice\n\n## Twice\n\n[back](../../README.md#the-door) [second](#twice-1) [third](#twice-2)\n")
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"README.md", "docs/guides/a.md"}; !reflect.DeepEqual(files, want) {
		t.Fatalf("files %v, want %v", files, want)
	}
	broken, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range broken {
		got = append(got, b.File+" "+b.Target)
	}
	want := []string{
		"README.md docs/guides/gone.md",
		"README.md docs/guides/a.md#nowhere",
		"README.md #elsewhere",
		"README.md ../outside.md",
		"README.md /README.md",
		"README.md shot.png#top",
		"README.md docs/guides/missing-too.md",
		"README.md missing.png",
		"docs/guides/a.md #twice-2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("broken:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A test run from a folder without the README fails rather than checks nothing.
func TestARootWithoutTheREADMEIsAnError(t *testing.T) {
	if _, err := Files(t.TempDir()); err == nil {
		t.Error("no error for a root without README.md")
	}
}

func TestSlugIsGitHubs(t *testing.T) {
	for heading, want := range map[string]string{
		"Running a table by hand (tableserver, dealer, grpcurl)": "running-a-table-by-hand-tableserver-dealer-grpcurl",
		"Floor: the cage (`atsctl cage`)":                        "floor-the-cage-atsctl-cage",
		"The settlement's transaction (lock → committed)":        "the-settlements-transaction-lock--committed",
		"500 and 1,000 terminals, PostgreSQL":                    "500-and-1000-terminals-postgresql",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
