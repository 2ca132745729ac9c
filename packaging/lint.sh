#!/usr/bin/env bash
# lint.sh runs a lab's static tools over the module, offline and reproducibly (issue 34 part 7):
#   govulncheck  against the Go vulnerability database built here from the golang.org/x/vulndb
#                module pinned in tools/go.mod (its data/osv entries, indexed by its own
#                cmd/indexdb): these machines reach no vulnerability database service, the Go
#                module proxy serves the module. A vulnerability the code reaches fails the run
#                unless packaging/govulncheck.allow names it with a reason (tools/vulnallow).
#   staticcheck  every check of its default set; a finding is fixed, or suppressed where it is
#                with //lint:ignore CHECK reason.
# All three tools are pinned in tools/go.mod. packaging/test.sh calls this after go vet.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=build/lint
mkdir -p "$bin"
(cd tools && go build -o "../$bin/" honnef.co/go/tools/cmd/staticcheck golang.org/x/vuln/cmd/govulncheck \
	golang.org/x/vulndb/cmd/indexdb ./vulnallow && go vet ./vulnallow && go test -count=1 ./vulnallow >/dev/null)

# The database, built once per pinned vulndb version into build/vulndb/<version>.
vulndb=$(cd tools && go list -m -f '{{.Version}}' golang.org/x/vulndb)
src=$(cd tools && go mod download golang.org/x/vulndb && go list -m -f '{{.Dir}}' golang.org/x/vulndb)
db="$PWD/build/vulndb/$vulndb"
if [ ! -f "$db/index/db.json" ]; then
	rm -rf "$db.tmp"
	"$bin/indexdb" -vulns "$src/data/osv" -out "$db.tmp"
	mv "$db.tmp" "$db"
fi
# The entries' own "modified" fields are zero in the repository (the live service fills them
# in from its history), so the database's date is the pinned commit's, read from its
# pseudo-version (v0.0.0-YYYYMMDDhhmmss-commit), and the newest entry it holds.
stamp=${vulndb#v0.0.0-}
date="${stamp:0:4}-${stamp:4:2}-${stamp:6:2} ${stamp:8:2}:${stamp:10:2}:${stamp:12:2} UTC"
entries=$(find "$src/data/osv" -name 'GO-*.json' | wc -l)
newest=$(find "$src/data/osv" -name 'GO-*.json' -printf '%f\n' | sort -V | tail -1)
echo "vulnerability database: golang.org/x/vulndb $vulndb, as of $date (commit ${stamp##*-}), $entries entries, newest ${newest%.json}"

status=0
"$bin/govulncheck" -db "file://$db" -format json ./... | "$bin/vulnallow" packaging/govulncheck.allow || status=1
echo "staticcheck $("$bin/staticcheck" -version | awk '{print $2, $3}')"
"$bin/staticcheck" ./... || status=1
exit $status
