#!/usr/bin/env bash
# check-deb.sh [PACKAGE.deb] checks the cabinet's Debian package: with no argument it builds it
# first (packaging/build-deb.sh). It checks what dpkg-deb says is in it (control fields,
# maintainer scripts, conffiles, every file with its owner and mode), unpacks it into a scratch
# root (dpkg -x) and checks the files there: modes, checksums, the libraries the binaries need
# against the package's Depends, the build stamps. It verifies the systemd units (systemd-analyze,
# where there is one) and the udev rules, runs the maintainer scripts and the kiosk session
# script against stand-in commands, installs, upgrades, removes and purges the package with dpkg
# in a throwaway overlay of this machine, starts the packaged table server with its unit's
# command line, and has the packaged kiosk draw under Xvfb. Nothing on this machine is changed:
# no user is created, no service started. Run by packaging/test.sh; runnable alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

deb=${1:-}
if [ -z "$deb" ]; then
	deb=$(bash packaging/build-deb.sh | tail -1)
fi
[ -f "$deb" ] || { echo "check-deb: no package at $deb" >&2; exit 1; }

scratch=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$scratch"
}
trap cleanup EXIT
failures=0
bad() {
	echo "check-deb: FAIL: $*" >&2
	failures=$((failures + 1))
}
# ok says a group of checks passed: only when none of them failed since the last ok.
passed=0
ok() {
	[ "$failures" -gt "$passed" ] || echo "check-deb: ok: $*"
	passed=$failures
}

# --- dpkg-deb --info -----------------------------------------------------------------------
info=$(dpkg-deb --info "$deb")
for field in Package Version Architecture Maintainer Installed-Size Depends Description; do
	grep -q "^ $field: ." <<<"$info" || bad "control field $field missing"
done
[ "$(dpkg-deb --field "$deb" Package)" = ats ] || bad "package name is not ats"
for member in control postinst prerm postrm conffiles md5sums; do
	grep -qE "^ +[0-9]+ bytes, +[0-9]+ lines +[*]? *$member( |$)" <<<"$info" || bad "control member $member missing"
done
depends=$(dpkg-deb --field "$deb" Depends)
for dep in adduser libpam-systemd xserver-xorg-core xinit xauth; do
	grep -qE "(^|, )$dep(,|$| )" <<<"$depends" || bad "Depends lacks $dep"
done
ok "dpkg-deb --info: $(dpkg-deb --field "$deb" Package) $(dpkg-deb --field "$deb" Version) $(dpkg-deb --field "$deb" Architecture)"

# --- dpkg-deb --contents: every file that must be there, owned by root, with its mode ---------
contents=$(dpkg-deb --contents "$deb")
expect_entry() { # MODE PATH
	local line
	line=$(awk -v p="./${2#/}" '$NF == p' <<<"$contents")
	if [ -z "$line" ]; then
		bad "$2 is not in the package"
	elif [ "$(awk '{print $1, $2}' <<<"$line")" != "$1 root/root" ]; then
		bad "$2: $(awk '{print $1, $2}' <<<"$line"), want $1 root/root"
	fi
}
for f in usr/bin/ats usr/bin/ats-tableserver usr/bin/ats-dealer usr/bin/atsctl usr/lib/ats/ats-kiosk-session; do
	expect_entry -rwxr-xr-x "$f"
done
for f in lib/systemd/system/ats-kiosk.service lib/systemd/system/ats-tableserver.service \
	lib/udev/rules.d/70-ats-serial.rules etc/ats/kiosk.env etc/ats/tableserver.env \
	etc/X11/ats-kiosk.conf etc/pam.d/ats-kiosk usr/share/applications/com.tablegames.ats.desktop \
	usr/share/icons/hicolor/256x256/apps/com.tablegames.ats.png usr/share/doc/ats/README.Debian \
	usr/share/doc/ats/copyright usr/share/doc/ats/changelog.Debian.gz; do
	expect_entry -rw-r--r-- "$f"
done
# Nothing owned by anyone but root, nothing writable by group or others, nothing setuid.
while IFS= read -r line; do
	bad "unsafe entry: $line"
done < <(awk '$2 != "root/root" || $1 ~ /^.....w/ || $1 ~ /^........w/ || $1 ~ /[sS]/ {print}' <<<"$contents")
ok "dpkg-deb --contents: $(wc -l <<<"$contents") entries, owners and modes as expected"

# --- the unpacked package ----------------------------------------------------------------------
tree=$scratch/root
mkdir -p "$tree" "$scratch/control"
dpkg -x "$deb" "$tree"
dpkg-deb --control "$deb" "$scratch/control"
for f in usr/bin/ats usr/bin/ats-tableserver usr/bin/ats-dealer usr/bin/atsctl usr/lib/ats/ats-kiosk-session; do
	[ "$(stat -c %a "$tree/$f")" = 755 ] || bad "$f: mode $(stat -c %a "$tree/$f") after dpkg -x, want 755"
done
while IFS= read -r f; do
	[ "$(stat -c %a "$f")" = 644 ] || bad "${f#"$tree"}: mode $(stat -c %a "$f") after dpkg -x, want 644"
done < <(find "$tree/etc" "$tree/lib" "$tree/usr/share" -type f)
for script in postinst prerm postrm; do
	[ "$(stat -c %a "$scratch/control/$script")" = 755 ] || bad "DEBIAN/$script is not 0755"
	sh -n "$scratch/control/$script" || bad "DEBIAN/$script: syntax"
	[ "$(sed -n 1p "$scratch/control/$script")" = '#!/bin/sh' ] || bad "DEBIAN/$script: not #!/bin/sh"
	grep -qx 'set -e' "$scratch/control/$script" || bad "DEBIAN/$script: no set -e"
done
# Every file under /etc is a conffile, and every conffile is in the package.
diff <(find "$tree/etc" -type f | sed "s|^$tree||" | sort) <(sort "$scratch/control/conffiles") >/dev/null ||
	bad "conffiles do not list exactly the files under /etc: $(tr '\n' ' ' <"$scratch/control/conffiles")"
(cd "$tree" && md5sum --quiet -c "$scratch/control/md5sums") || bad "md5sums do not match the files"
[[ "$(readelf -d "$tree/usr/bin/ats")" == *NEEDED* ]] || bad "the kiosk is not a cgo (dynamically linked) binary"
for b in ats-tableserver ats-dealer atsctl; do
	[[ "$(readelf -d "$tree/usr/bin/$b")" != *NEEDED* ]] || bad "$b is not a static Go binary"
done
# Built as build-deb.sh says: paths trimmed, the commit stamped, the kiosk with build-kiosk.sh's tags.
kiosk_tags=$(sed -n 's/.*-tags \([^ ]*\).*/\1/p' packaging/build-kiosk.sh 2>/dev/null || true)
for b in ats ats-tableserver ats-dealer atsctl; do
	buildinfo=$(go version -m "$tree/usr/bin/$b")
	grep -q $'\tbuild\t-trimpath=true' <<<"$buildinfo" || bad "$b was not built with -trimpath"
	grep -q $'\tdep\t' <<<"$buildinfo" || bad "$b lists no module versions (go version -m)"
	if git rev-parse --git-dir >/dev/null 2>&1; then
		grep -q $'\tbuild\tvcs.revision=' <<<"$buildinfo" || bad "$b carries no commit (vcs.revision)"
	fi
done
if [ -n "$kiosk_tags" ]; then
	grep -q $'\tbuild\t-tags='"$kiosk_tags"'$' <<<"$(go version -m "$tree/usr/bin/ats")" || bad "the kiosk was not built with -tags $kiosk_tags"
fi
ok "dpkg -x: modes, conffiles and md5sums as expected; binaries trimmed, stamped, kiosk tags ${kiosk_tags:-none}"

# --- libraries: every one the binaries need belongs to a package in Depends ---------------------
# The linked ones (readelf), and the X libraries GLFW opens at start-up (dlopen; glfw/src/x11_init.c).
needed=$(readelf -d "$tree"/usr/bin/* 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sort -u)
needed="$needed libX11-xcb.so.1 libXcursor.so.1 libXi.so.6 libXinerama.so.1 libXrandr.so.2 libXrender.so.1 libXxf86vm.so.1"
for lib in $needed; do
	# (awk reads to the end: an early exit would break ldconfig's pipe, and pipefail with it.)
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|AArch64|64bit/ && p == "" {p = $NF} END {print p}')
	[ -n "$path" ] || path=$(ldconfig -p | awk -v l="$lib" '$1 == l && p == "" {p = $NF} END {print p}')
	if [ -z "$path" ]; then
		bad "library $lib is not on this machine (setup.sh installs the kiosk's libraries)"
		continue
	fi
	owner=""
	for candidate in "$path" "$(readlink -f "$path")" "${path#/usr}" "/usr${path}"; do
		owner=$(dpkg -S "$candidate" 2>/dev/null | awk -F: 'NR == 1 {print $1}') && [ -n "$owner" ] && break
	done
	if [ -z "$owner" ]; then
		bad "library $lib ($path) belongs to no package"
	elif ! grep -qE "(^|, )$owner(,|$| )" <<<"$depends"; then
		bad "library $lib is in package $owner, which Depends does not name"
	fi
done
ok "libraries: $(wc -w <<<"$needed") needed, each from a package in Depends"

# --- systemd units ---------------------------------------------------------------------------
if command -v systemd-analyze >/dev/null 2>&1 && systemd-analyze --version >/dev/null 2>&1; then
	units=$scratch/units
	mkdir -p "$units"
	# systemd-analyze verify checks that each command exists and is executable: point the
	# commands into the unpacked package, so the units are checked against what it installs.
	for unit in "$tree"/lib/systemd/system/*.service; do
		sed -E "s#^(Exec[A-Za-z]*=[-@:+!]*)/#\1$tree/#" "$unit" >"$units/$(basename "$unit")"
	done
	# It exits 0 on warnings (an unknown key, a bad value): any output at all is a failure.
	if ! report=$(cd "$units" && systemd-analyze verify ./*.service 2>&1) || [ -n "$report" ]; then
		bad "systemd-analyze verify: $report"
	else
		ok "systemd-analyze verify: both units clean"
	fi
	for unit in ats-kiosk ats-tableserver; do
		exposure=$(cd "$units" && systemd-analyze security --offline=yes "./$unit.service" 2>/dev/null |
			sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p')
		# Ceilings a little above today's scores (2.2 and 1.2): a unit that loses its hardening fails.
		ceiling=$([ "$unit" = ats-kiosk ] && echo 3.0 || echo 1.6)
		if [ -z "$exposure" ]; then
			echo "check-deb: systemd-analyze security gave no score for $unit (skipped)"
		elif awk -v e="$exposure" -v c="$ceiling" 'BEGIN { exit !(e > c) }'; then
			bad "systemd-analyze security: $unit exposure $exposure, above $ceiling"
		else
			ok "systemd-analyze security: $unit exposure $exposure (ceiling $ceiling)"
		fi
	done
else
	echo "check-deb: no working systemd-analyze here: units not verified"
fi
# Whatever systemd-analyze says, the kiosk unit must keep the properties the cabinet relies on.
kunit=$tree/lib/systemd/system/ats-kiosk.service
for line in 'User=ats' 'Restart=always' 'StateDirectory=ats' 'EnvironmentFile=/etc/ats/kiosk.env' \
	'NoNewPrivileges=yes' 'ProtectSystem=strict' 'PrivateTmp=yes' 'PAMName=ats-kiosk' 'TTYPath=/dev/tty7' \
	'StartLimitIntervalSec=0' 'ExecStart=/usr/lib/ats/ats-kiosk-session'; do
	grep -qx "$line" "$kunit" || bad "ats-kiosk.service lacks $line"
done
grep -q '^Option "DontVTSwitch" "true"' <(sed 's/^\t*//' "$tree/etc/X11/ats-kiosk.conf") || bad "ats-kiosk.conf lacks DontVTSwitch"
grep -q '^Option "DontZap" "true"' <(sed 's/^\t*//' "$tree/etc/X11/ats-kiosk.conf") || bad "ats-kiosk.conf lacks DontZap"

# --- udev rules ------------------------------------------------------------------------------
rules=$tree/lib/udev/rules.d/70-ats-serial.rules
if command -v udevadm >/dev/null 2>&1 && udevadm verify --help >/dev/null 2>&1; then
	udevadm verify "$rules" >/dev/null || bad "udevadm verify $rules"
	ok "udevadm verify"
fi
# udevadm verify came with systemd 253 (Debian 12 has 252): this syntax check runs everywhere.
# Each rule line is comma-separated KEY[{attr}] OP "value"; match keys take == or !=, the keys
# that only assign take =, += or :=; every GOTO has its LABEL.
syntax=$(awk '
	/^[[:space:]]*(#|$)/ { next }
	{
		line = $0
		while (line != "") {
			if (!match(line, /^[[:space:]]*[A-Z_]+(\{[^}]*\})?[[:space:]]*(==|!=|\+=|-=|:=|=)[[:space:]]*"[^"]*"[[:space:]]*(,|$)/)) {
				print FILENAME ":" NR ": cannot parse: " line; break
			}
			tok = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
			key = tok; sub(/^[[:space:]]*/, "", key); sub(/[{=!+:-].*/, "", key)
			op = tok; sub(/^[^=!+:-]*(\{[^}]*\})?[[:space:]]*/, "", op); sub(/[[:space:]]*".*/, "", op)
			if (key !~ /^(ACTION|DEVPATH|KERNEL|KERNELS|NAME|SYMLINK|SUBSYSTEM|SUBSYSTEMS|DRIVER|DRIVERS|ATTR|ATTRS|SYSCTL|TAG|TAGS|ENV|CONST|TEST|PROGRAM|RESULT|OWNER|GROUP|MODE|SECLABEL|RUN|LABEL|GOTO|IMPORT|OPTIONS)$/)
				print FILENAME ":" NR ": unknown key " key
			if (key ~ /^(ACTION|DEVPATH|KERNEL|KERNELS|SUBSYSTEM|SUBSYSTEMS|DRIVER|DRIVERS|ATTRS|TAGS|CONST|TEST|RESULT)$/ && op !~ /^(==|!=)$/)
				print FILENAME ":" NR ": " key " is a match key, not " op
			if (key ~ /^(OWNER|GROUP|MODE|LABEL|GOTO|RUN|OPTIONS|SECLABEL)$/ && op ~ /^(==|!=)$/)
				print FILENAME ":" NR ": " key " assigns, it cannot match with " op
			if (key == "GOTO") { g = tok; sub(/^[^"]*"/, "", g); sub(/".*/, "", g); gotos[g] = NR }
			if (key == "LABEL") { l = tok; sub(/^[^"]*"/, "", l); sub(/".*/, "", l); labels[l] = 1 }
		}
	}
	END { for (g in gotos) if (!(g in labels)) print FILENAME ":" gotos[g] ": GOTO " g " has no LABEL" }
' "$rules")
[ -z "$syntax" ] || bad "udev rules: $syntax"
# Each stable name is made by a rule that gives the device to root:ats 0660 (and no one else).
for name in ats-acceptor ats-printer ats-idpad; do
	rule=$(grep -v '^[[:space:]]*#' "$rules" | grep "SYMLINK+=\"$name\"" || true)
	if [ -z "$rule" ]; then
		bad "udev rules make no /dev/$name"
		continue
	fi
	for want in 'SUBSYSTEM!="tty"' 'ATTRS{idVendor}==' 'ATTRS{idProduct}==' 'ATTRS{serial}=='; do
		grep -qF "$want" <<<"$rule$(grep -F 'SUBSYSTEM!="tty"' "$rules")" || bad "udev rule for $name lacks $want"
	done
	for want in 'OWNER="root"' 'GROUP="ats"' 'MODE="0660"' 'ENV{ID_MM_DEVICE_IGNORE}="1"'; do
		grep -qF "$want" <<<"$rule" || bad "udev rule for $name lacks $want"
	done
done
ok "udev rules: syntax, /dev/ats-acceptor, /dev/ats-printer, /dev/ats-idpad root:ats 0660"

# --- shellcheck ---------------------------------------------------------------------------------
if command -v shellcheck >/dev/null 2>&1; then
	shellcheck packaging/build-deb.sh packaging/check-deb.sh "$tree/usr/lib/ats/ats-kiosk-session" || bad "shellcheck"
	shellcheck -s sh "$scratch"/control/{postinst,prerm,postrm} || bad "shellcheck (maintainer scripts)"
	ok "shellcheck: build-deb.sh, check-deb.sh, ats-kiosk-session, postinst, prerm, postrm"
else
	echo "check-deb: no shellcheck here (packaging/setup.sh installs it): scripts not linted"
fi
if command -v desktop-file-validate >/dev/null 2>&1; then
	desktop-file-validate "$tree/usr/share/applications/com.tablegames.ats.desktop" || bad "desktop-file-validate"
fi

# --- maintainer scripts, against stand-in commands ----------------------------------------------
# Each stand-in logs its call; getent answers from files of the users and groups "created" so far, so a
# second configure shows that nothing is created twice. /run/systemd/system and /run/udev/control
# are whatever this machine has: the scripts' systemctl and udevadm calls are stand-ins too.
fake=$scratch/fake
mkdir -p "$fake/bin"
: >"$fake/log"
: >"$fake/passwd"
: >"$fake/group"
for cmd in adduser addgroup install systemctl udevadm rmdir find ln rm; do
	cat >"$fake/bin/$cmd" <<EOF
#!/bin/sh
echo "$cmd \$*" >>"$fake/log"
case "$cmd" in
adduser) for a in "\$@"; do last=\$a; done; echo "\$last" >>"$fake/passwd" ;;
addgroup) for a in "\$@"; do last=\$a; done; echo "\$last" >>"$fake/group" ;;
esac
exit 0
EOF
	chmod +x "$fake/bin/$cmd"
done
cat >"$fake/bin/getent" <<EOF
#!/bin/sh
echo "getent \$*" >>"$fake/log"
grep -qx "\$2" "$fake/\$1"
EOF
chmod +x "$fake/bin/getent"
maint() { PATH="$fake/bin:$PATH" sh "$scratch/control/$1" "${@:2}"; }
maint postinst configure "" || bad "postinst configure (fresh install) failed"
for want in 'addgroup --quiet --system ats' 'adduser --quiet --system --ingroup ats --home /var/lib/ats' \
	'addgroup --quiet --system ats-table' 'adduser --quiet --system --ingroup ats-table --home /var/lib/ats-table' \
	'install -d -o ats -g ats -m 0700 /var/lib/ats' 'install -d -o root -g ats -m 0750 /etc/ats/pki'; do
	grep -qF -- "$want" "$fake/log" || bad "postinst configure did not run: $want"
done
grep -qF 'ln -sfn /var/lib/ats/touch/99-ats-touch-calibration.rules /etc/udev/rules.d/99-ats-touch-calibration.rules' "$fake/log" ||
	bad "postinst links no touch calibration rule for udev"
grep -q 'systemctl.*enable' "$fake/log" && bad "postinst enables a service"
: >"$fake/log"
maint postinst configure 0.1.0 || bad "postinst configure (upgrade) failed"
grep -qE '^add(user|group)' "$fake/log" && bad "postinst creates a user or group that exists"
maint prerm upgrade 0.2.0 || bad "prerm upgrade failed"
: >"$fake/log"
maint prerm remove || bad "prerm remove failed"
[ ! -d /run/systemd/system ] || grep -q 'systemctl stop ats-kiosk.service ats-tableserver.service' "$fake/log" ||
	bad "prerm remove does not stop the services"
: >"$fake/log"
maint postrm remove || bad "postrm remove failed"
grep -qE '^(rmdir|find)' "$fake/log" && bad "postrm remove touches what only purge removes"
maint postrm purge || bad "postrm purge failed"
grep -q 'rmdir --ignore-fail-on-non-empty /etc/ats/pki' "$fake/log" || bad "postrm purge leaves /etc/ats/pki"
grep -qE '/var/lib/ats|userdel|deluser' "$fake/log" && bad "postrm purge removes money records or users"
maint postinst bogus 2>/dev/null && bad "postinst accepts an unknown action"
ok "maintainer scripts: users created once, no service enabled, remove vs purge"

# --- dpkg itself: install, upgrade, remove, purge, in a throwaway overlay of this machine -----------
# A private mount namespace with an overlay over /etc, /usr, /var (and /lib where it is not a
# link) whose writes go to the scratch directory, and an empty /run so the maintainer scripts
# find no systemd or udev to talk to: dpkg and the real adduser run, and this machine is left
# as it was. --force-depends: the X server the package depends on need not be installed here.
overlay=$scratch/overlay
mkdir -p "$overlay"
cat >"$overlay/inside.sh" <<'INSIDE'
set -eu
deb=$1 overlay=$2
for d in etc usr var lib; do
	[ -d "/$d" ] && [ ! -L "/$d" ] || continue
	mkdir -p "$overlay/$d-up" "$overlay/$d-work"
	mount -t overlay overlay -o "lowerdir=/$d,upperdir=$overlay/$d-up,workdir=$overlay/$d-work" "/$d"
done
mount -t tmpfs tmpfs /run
fail() { echo "FAIL: $*"; }
log=$overlay/dpkg.log
dpkg -i --force-depends "$deb" >"$log" 2>&1 || fail "dpkg -i: $(tail -5 "$log")"
[ "$(dpkg-query -W -f='${Status}' ats)" = "install ok installed" ] || fail "not installed: $(tail -5 "$log")"
dpkg --verify ats || fail "dpkg --verify after install"
for u in ats ats-table; do
	entry=$(getent passwd "$u") || { fail "no user $u"; continue; }
	[ "$(echo "$entry" | cut -d: -f6,7)" = "/var/lib/$u:/usr/sbin/nologin" ] || fail "user $u: $entry"
	[ "$(echo "$entry" | cut -d: -f3)" -lt 1000 ] || fail "user $u is not a system user: $entry"
done
[ "$(stat -c '%U:%G %a' /etc/ats/pki)" = "root:ats 750" ] || fail "/etc/ats/pki: $(stat -c '%U:%G %a' /etc/ats/pki)"
[ "$(stat -c '%U:%G %a' /var/lib/ats)" = "ats:ats 700" ] || fail "/var/lib/ats: $(stat -c '%U:%G %a' /var/lib/ats)"
[ "$(stat -c '%U:%G %a' /var/lib/ats-table)" = "ats-table:ats-table 700" ] || fail "/var/lib/ats-table: $(stat -c '%U:%G %a' /var/lib/ats-table)"
# The site edits its config and a journal accumulates; an upgrade keeps both, no user twice.
echo "ATS_SERVER=table1:7443" >>/etc/ats/kiosk.env
echo journal >/var/lib/ats/terminal-T01.db
dpkg -i --force-depends --force-confold "$deb" >"$log" 2>&1 || fail "dpkg -i (upgrade): $(tail -5 "$log")"
grep -qx "ATS_SERVER=table1:7443" /etc/ats/kiosk.env || fail "the upgrade replaced the site's kiosk.env"
[ "$(getent passwd | grep -c '^ats:')" = 1 ] || fail "user ats twice after the upgrade"
dpkg -r --force-depends ats >"$log" 2>&1 || fail "dpkg -r: $(tail -5 "$log")"
[ ! -e /usr/bin/ats ] || fail "dpkg -r left /usr/bin/ats"
[ -f /etc/ats/kiosk.env ] || fail "dpkg -r removed the configuration"
dpkg -P ats >"$log" 2>&1 || fail "dpkg -P: $(tail -5 "$log")"
[ ! -e /etc/ats/kiosk.env ] && [ ! -e /etc/X11/ats-kiosk.conf ] || fail "dpkg -P left configuration files"
[ ! -e /etc/ats ] || fail "dpkg -P left /etc/ats: $(ls -A /etc/ats)"
[ "$(cat /var/lib/ats/terminal-T01.db)" = journal ] || fail "dpkg -P removed the terminal journal"
getent passwd ats >/dev/null || fail "dpkg -P removed the ats user (policy: keep it)"
echo done
INSIDE
if unshare -m --propagation private true 2>/dev/null; then
	result=$(unshare -m --propagation private sh "$overlay/inside.sh" "$deb" "$overlay" 2>&1 || true)
	if grep -qx 'done' <<<"$result" && ! grep -q '^FAIL' <<<"$result"; then
		ok "dpkg -i, upgrade, -r, -P in a throwaway overlay: users, directories, conffiles kept, records kept"
	elif ! grep -q '^FAIL' <<<"$result" && grep -q 'mount' <<<"$result"; then
		# The overlay itself could not be mounted (not root, or a file system overlayfs cannot
		# use for its upper directory): the package was not tried, which is not its failure.
		echo "check-deb: no overlay mounts here ($(grep -m1 mount <<<"$result")): dpkg install not tried"
	else
		bad "dpkg in an overlay: $result"
	fi
else
	echo "check-deb: no private mount namespace here (needs root): dpkg install not tried"
fi

# --- the kiosk session script, with a stand-in xinit ----------------------------------------------
session=$tree/usr/lib/ats/ats-kiosk-session
cat >"$fake/bin/xinit" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$fake/xinit-args"
EOF
chmod +x "$fake/bin/xinit"
runtime=$scratch/run
pki=$scratch/pki
mkdir -p "$runtime" "$pki"
# The environment systemd gives the unit from an EnvironmentFile: KEY=VALUE lines, comments and
# blank lines skipped, one pair of enclosing quotes removed, nothing expanded.
env_file() {
	sed -n -E 's/^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/\1=\2/p' "$1" |
		sed -E "s/^([^=]*)=\"(.*)\"\$/\1=\2/; s/^([^=]*)='(.*)'\$/\1=\2/"
}
mapfile -t kiosk_env < <(env_file "$tree/etc/ats/kiosk.env")
run_session() { # runs the packaged session script as the unit would, VAR=VALUE overrides after
	env -i PATH="$fake/bin:$PATH" RUNTIME_DIRECTORY="$runtime" ATS_KIOSK_BIN="$tree/usr/bin/ats" \
		"${kiosk_env[@]}" "$@" "$session"
}
if out=$(run_session 2>&1); then
	bad "the kiosk session starts with no ATS_SERVER"
else
	grep -q 'ATS_SERVER is not set' <<<"$out" || bad "the kiosk session without ATS_SERVER says: $out"
fi
out=$(run_session ATS_SERVER=table:7443 ATS_PKI="$pki" 2>&1) && bad "the kiosk session starts without certificates"
grep -q 'no .*ca.pem' <<<"$out" || bad "the kiosk session without certificates says: $out"
: >"$pki/ca.pem"
rm -f "$fake/xinit-args"
run_session ATS_SERVER=table:7443 ATS_PKI="$pki" ATS_ID=T07 "ATS_XORG_ARGS=-nocursor -dpi 96" >/dev/null 2>&1 ||
	bad "the kiosk session does not start xinit"
args=$(cat "$fake/xinit-args" 2>/dev/null || true)
want="$tree/usr/bin/ats -id T07 -design A -server table:7443 -pki $pki -acceptor /dev/ats-acceptor -printer /dev/ats-printer -idpad /dev/ats-idpad -seat 1 -- /usr/bin/Xorg :0 vt7 -keeptty -novtswitch -auth $runtime/Xauthority -config ats-kiosk.conf -nolisten tcp -nolisten local -s 0 -dpms -background none -nocursor -dpi 96"
[ "$(tr '\n' ' ' <<<"$args" | sed 's/ $//')" = "$want" ] || bad "xinit arguments: $(tr '\n' ' ' <<<"$args"), want $want"
[ "$(stat -c %a "$runtime/Xauthority" 2>/dev/null)" = 600 ] || bad "the X cookie is not mode 0600"
[ "$(xauth -f "$runtime/Xauthority" list 2>/dev/null | wc -l)" = 1 ] || bad "the X cookie file holds no cookie"
run_session ATS_DEMO=1 >/dev/null 2>&1 || bad "ATS_DEMO=1 does not start the demo table"
grep -qx -- -server "$fake/xinit-args" && bad "ATS_DEMO=1 passes -server"
# The kiosk itself takes every flag the session passes (an unknown one exits 2 before anything):
# with an empty PKI it gets as far as loading its certificate and fails there.
mapfile -t kiosk_args < <(sed '/^--$/,$d' <<<"$args" | tail -n +2)
out=$(ATS_STATE_DIR=$scratch/state timeout 20 "$tree/usr/bin/ats" "${kiosk_args[@]}" 2>&1) && bad "the kiosk started without certificates"
if grep -q 'flag provided but not defined' <<<"$out" || ! grep -q 'T07.pem\|ca.pem\|PEM' <<<"$out"; then
	bad "the kiosk with the session's flags says: $out"
fi
ok "kiosk session: refuses without server or certificates, X on vt7 with -novtswitch, -nolisten tcp/local, a private cookie"

# --- the packaged table server, started with its unit's command line ------------------------------
ts=$tree/usr/bin/ats-tableserver
"$ts" pki init -dir "$scratch/table/pki" -terminals T01 >/dev/null 2>&1 || bad "ats-tableserver pki init"
exec_start=$(sed -n 's/^ExecStart=//p' "$tree/lib/systemd/system/ats-tableserver.service")
# As systemd would expand it: %S, ${VAR} as one word, $VAR split on spaces; the listen address
# and PKI overridden to a free loopback port and the scratch PKI.
(
	mapfile -t table_env < <(env_file "$tree/etc/ats/tableserver.env")
	for kv in "${table_env[@]}"; do export "${kv?}"; done
	ATS_LISTEN=127.0.0.1:0 ATS_PKI=$scratch/table/pki
	d='$' # the unit's literal ${VAR} and $VAR
	cmd=${exec_start//'%S'/$scratch/state}
	cmd=${cmd//"$d{ATS_LISTEN}"/$ATS_LISTEN}
	cmd=${cmd//"$d{ATS_PKI}"/$ATS_PKI}
	cmd=${cmd//"${d}ATS_TABLESERVER_ARGS"/$ATS_TABLESERVER_ARGS}
	cmd=${cmd/#'/usr/bin/ats-tableserver'/$ts}
	mkdir -p "$scratch/state/ats-table"
	# shellcheck disable=SC2086 # split like systemd's $VAR
	exec $cmd
) >"$scratch/tableserver.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
	grep -q 'table server listening' "$scratch/tableserver.log" && break
	kill -0 "${pids[-1]}" 2>/dev/null || break
	sleep 0.2
done
if grep -q 'table server listening' "$scratch/tableserver.log" && [ -s "$scratch/state/ats-table/table.db" ]; then
	ok "ats-tableserver runs with its unit's command line (ledger in the state directory)"
	# The packaged table plays Crown's rules unless its env says otherwise, so it is carded
	# (SPEC §10: no registered card with limits set, no wager) and says so at start.
	grep -q 'msg="carded play" on=true' "$scratch/tableserver.log" ||
		bad "the packaged Crown table does not say it plays carded: $(cat "$scratch/tableserver.log")"
	ok "the packaged table plays carded under its default rules (Crown's)"
else
	bad "ats-tableserver with its unit's command line: $(cat "$scratch/tableserver.log")"
fi
kill "${pids[-1]}" 2>/dev/null || true

# --- the packaged kiosk draws -------------------------------------------------------------------
if command -v Xvfb >/dev/null 2>&1; then
	if SCREENSHOT_WAIT=${SCREENSHOT_WAIT:-6} bash packaging/screenshot.sh "$tree/usr/bin/ats" build/screenshot-deb.png; then
		ok "the packaged kiosk draws under Xvfb (build/screenshot-deb.png)"
	else
		bad "the packaged kiosk does not draw under Xvfb"
	fi
else
	echo "check-deb: no Xvfb here (packaging/setup.sh installs it): the packaged kiosk was not run"
fi

if [ "$failures" -gt 0 ]; then
	echo "check-deb: $failures check(s) failed for $deb" >&2
	exit 1
fi
echo "check-deb: $deb: all checks passed"
