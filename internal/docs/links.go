// Package docs checks the repository's documentation as a reader meets it: every relative link
// and #anchor in README.md and docs/**/*.md must lead to a file, a folder or a heading that is
// there. The README is a door to docs/ (issue 30): a guide moved or a heading renamed without its
// links would leave a newcomer at a dead end, and nothing else would notice. Orphans finds the
// pages under docs/ that no page links to, which a reader starting at the README cannot reach.
//
// A link is a Markdown inline link or image ([text](target), ![alt](target)), a reference
// definition ([name]: target) or an HTML href/src attribute, outside code blocks and code spans.
// Links with a scheme (https:, mailto:, …) are left alone: the tests have no network.
package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Broken is one link that does not resolve.
type Broken struct {
	File   string // the Markdown file, relative to the root, with forward slashes
	Line   int    // 1-based
	Target string // the link as written
	Reason string
}

func (b Broken) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", b.File, b.Line, b.Target, b.Reason)
}

// Files lists the documentation under root the checker reads: README.md and every .md file under
// docs/, relative to root with forward slashes, sorted. A root without README.md is an error, so
// a test run from the wrong place fails rather than checks nothing.
func Files(root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, "README.md")); err != nil {
		return nil, fmt.Errorf("docs: no README.md under %s: %w", root, err)
	}
	files := []string{"README.md"}
	docs := filepath.Join(root, "docs")
	err := filepath.WalkDir(docs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	sort.Strings(files[1:])
	return files, nil
}

// Check reads each of files (relative to root) and returns every link in them that does not
// resolve: a relative path that names no file or folder under root, a path that leaves root, or
// an #anchor that names no heading of the Markdown file it points into.
func Check(root string, files []string) ([]Broken, error) {
	anchors := map[string]map[string]bool{} // file (relative) → its headings' anchors
	anchorsOf := func(rel string) (map[string]bool, error) {
		if a, ok := anchors[rel]; ok {
			return a, nil
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		a := Anchors(string(b))
		anchors[rel] = a
		return a, nil
	}
	var broken []Broken
	for _, file := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return nil, err
		}
		for _, l := range Links(string(b)) {
			bad := func(reason string) {
				broken = append(broken, Broken{File: file, Line: l.Line, Target: l.Target, Reason: reason})
			}
			target := l.Target
			if hasScheme(target) {
				continue
			}
			p, anchor, _ := strings.Cut(target, "#")
			if q := strings.IndexByte(p, '?'); q >= 0 {
				p = p[:q]
			}
			rel := file
			if p != "" {
				if strings.HasPrefix(p, "/") {
					bad("an absolute path: a repository link is relative to its file")
					continue
				}
				rel = path.Clean(path.Join(path.Dir(file), p))
				if rel == ".." || strings.HasPrefix(rel, "../") {
					bad("leaves the repository")
					continue
				}
				info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
				if err != nil {
					bad("no such file or folder")
					continue
				}
				if anchor != "" && info.IsDir() {
					bad("an #anchor on a folder")
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(rel, ".md") {
				bad("an #anchor into a file that is not Markdown")
				continue
			}
			a, err := anchorsOf(rel)
			if err != nil {
				return nil, err
			}
			if !a[anchor] {
				bad(fmt.Sprintf("no heading %q in %s", "#"+anchor, rel))
			}
		}
	}
	return broken, nil
}

// Orphans returns the files among files (relative to root) that no other of them links to,
// README.md apart: a guide nobody links to is one a reader cannot find from the README.
func Orphans(root string, files []string) ([]string, error) {
	linked := map[string]bool{}
	for _, file := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return nil, err
		}
		for _, l := range Links(string(b)) {
			p, _, _ := strings.Cut(l.Target, "#")
			if p == "" || hasScheme(p) {
				continue
			}
			if rel := path.Clean(path.Join(path.Dir(file), p)); rel != file {
				linked[rel] = true
			}
		}
	}
	var orphans []string
	for _, file := range files {
		if file != "README.md" && !linked[file] {
			orphans = append(orphans, file)
		}
	}
	return orphans, nil
}

// Link is one link target found in a Markdown text.
type Link struct {
	Line   int
	Target string
}

var (
	inline    = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	reference = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	html      = regexp.MustCompile(`\b(?:href|src)="([^"]+)"`)
	codeSpan  = regexp.MustCompile("`+[^`]*`+")
	scheme    = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

func hasScheme(target string) bool { return scheme.MatchString(target) }

// Links returns the link targets of a Markdown text, with their lines, outside fenced code
// blocks and code spans.
func Links(text string) []Link {
	var links []Link
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		if f := fenceOf(line); f != "" {
			switch {
			case fence == "":
				fence = f
				continue
			case strings.HasPrefix(f, fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), f[:1])) == "":
				fence = ""
				continue
			}
		}
		if fence != "" {
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		for _, re := range []*regexp.Regexp{inline, reference, html} {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				links = append(links, Link{Line: i + 1, Target: m[1]})
			}
		}
	}
	return links
}

// fenceOf returns the run of backticks or tildes (three or more) that opens or closes a fenced
// code block on line, or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}

// Anchors returns the anchors of a Markdown text's ATX headings (# …), as GitHub makes them: the
// heading's text in lower case, without punctuation, spaces turned to hyphens, and -1, -2, … after
// a repeated one.
func Anchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		if f := fenceOf(line); f != "" {
			if fence == "" {
				fence = f
			} else if strings.HasPrefix(f, fence) {
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 || !strings.HasPrefix(t, "#") {
			continue
		}
		level := len(t) - len(strings.TrimLeft(t, "#"))
		rest := t[level:]
		if level > 6 || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		slug := Slug(strings.TrimRight(strings.TrimSpace(rest), "#"))
		if n, ok := seen[slug]; ok {
			seen[slug] = n + 1
			anchors[fmt.Sprintf("%s-%d", slug, n+1)] = true
			continue
		}
		seen[slug] = 0
		anchors[slug] = true
	}
	return anchors
}

// Slug is GitHub's anchor for a heading's text: lower case; letters, digits, hyphens and
// underscores kept; spaces turned to hyphens; everything else (backticks, punctuation,
// symbols) dropped.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
