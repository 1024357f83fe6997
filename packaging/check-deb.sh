#!/usr/bin/env bash
# Checks a gloved .deb as CI does:
#
#   packaging/check-deb.sh DEB VERSION
#
# Always: the control fields, the files and their modes, the conffile,
# the maintainer scripts' syntax, the binary's `gloved version`, the
# conffile through the binary's `run --check`, and `systemd-analyze verify`
# on the unit as installed (from the package's files, ExecStart pointed at
# the extracted binary). As root with dpkg and no gloved installed: dpkg -i
# it, check the files landed, the gloved user (in dialout), the unit at its
# installed path, `systemctl enable` (offline, without systemd running),
# the conffile checked as the gloved user, the unit's ExecStart run by hand
# as that user for three seconds (its ports moved to free ones) with
# `gloved watch` seeing the demo's hand stream, then dpkg -r (the
# conffile stays) and dpkg -P (it and the enable links go); the machine is
# left as it was found. What this cannot check without systemd as PID 1:
# the service started by systemd (sandbox, DeviceAllow at run time,
# sd_notify, the watchdog), and udev applying the rule to a real adapter.
set -euo pipefail

fail() { echo "check-deb.sh: FAIL: $*" >&2; exit 1; }
ok() { echo "  ok: $*"; }

[ $# -eq 2 ] || { echo "usage: packaging/check-deb.sh DEB VERSION" >&2; exit 2; }
deb=$1 version=$2
[ -f "$deb" ] || fail "$deb: no such file"

work=$(mktemp -d)
cleanup=("rm -rf '$work'")
trap 'for c in "${cleanup[@]}"; do eval "$c" || true; done' EXIT

echo "== the package: $deb"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = gloved ] || fail "Package is $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version is $(field Version), want $version"
[ -n "$(field Architecture)" ] || fail "no Architecture"
grep -q systemd <<<"$(field Depends)" || fail "Depends lacks systemd (the postinst runs systemd-sysusers): $(field Depends)"
ok "control: gloved $version, $(field Architecture), Depends: $(field Depends)"

# path -> mode: every file the package must hold.
declare -A want=(
  [./usr/bin/gloved]=-rwxr-xr-x
  [./usr/lib/systemd/system/gloved.service]=-rw-r--r--
  [./usr/lib/udev/rules.d/99-cyberglove.rules]=-rw-r--r--
  [./usr/lib/sysusers.d/gloved.conf]=-rw-r--r--
  [./usr/lib/modules-load.d/gloved.conf]=-rw-r--r--
  [./etc/gloved/gloved.toml]=-rw-r--r--
)
listing=$(dpkg-deb -c "$deb")
for path in "${!want[@]}"; do
  line=$(awk -v p="$path" '$6 == p' <<<"$listing")
  [ -n "$line" ] || fail "$path is not in the package"
  read -r mode owner _ <<<"$line"
  [ "$mode" = "${want[$path]}" ] && [ "$owner" = root/root ] || fail "$path is $mode $owner, want ${want[$path]} root/root"
done
ok "files: ${#want[@]} present, modes and owners right"

dpkg-deb -e "$deb" "$work/control"
[ "$(cat "$work/control/conffiles")" = /etc/gloved/gloved.toml ] || fail "conffiles is: $(cat "$work/control/conffiles")"
ok "conffiles: /etc/gloved/gloved.toml"
for s in postinst prerm postrm; do
  [ -x "$work/control/$s" ] || fail "no executable $s"
  sh -n "$work/control/$s" || fail "$s: syntax"
done
ok "maintainer scripts: postinst prerm postrm, sh -n clean"

root=$work/root
dpkg-deb -x "$deb" "$root"
# The output is read whole before it is looked at: a pipe into head or
# grep -q may close before gloved has written, and under pipefail its
# SIGPIPE would fail the check.
said=$("$root/usr/bin/gloved" version)
got=${said%%$'\n'*}
[ "$got" = "gloved $version" ] || fail "the binary says \"$got\", want \"gloved $version\""
grep -q '^commit [0-9a-f]\{40\}' <<<"$said" || fail "the binary names no commit: $said"
ok "binary: $(paste -sd ';' <<<"$said")"
"$root/usr/bin/gloved" run -c "$root/etc/gloved/gloved.toml" --check >"$work/check.out" || fail "the conffile does not load: $(cat "$work/check.out")"
ok "conffile: $(cat "$work/check.out")"

unit=$root/usr/lib/systemd/system/gloved.service
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
[[ "$exec_start" == "/usr/bin/gloved run -c /etc/gloved/gloved.toml "* ]] || fail "ExecStart is \"$exec_start\""
for dev in char-ttyUSB char-ttyACM char-ttyS; do
  grep -qx "DeviceAllow=$dev rw" "$unit" || fail "the unit lacks DeviceAllow=$dev rw"
done
ok "unit: ExecStart=$exec_start; DeviceAllow ttyUSB, ttyACM, ttyS"
if command -v systemd-analyze >/dev/null; then
  mkdir "$work/unit"
  sed "s#/usr/bin/gloved#$root/usr/bin/gloved#g" "$unit" >"$work/unit/gloved.service"
  out=$(systemd-analyze verify "$work/unit/gloved.service" 2>&1) || fail "systemd-analyze verify: $out"
  [ -z "$out" ] || fail "systemd-analyze verify warns: $out"
  ok "systemd-analyze verify: clean ($(systemd-analyze security --offline=true "$work/unit/gloved.service" 2>/dev/null | sed -n 's/.*Overall exposure level for gloved.service: //p'))"
else
  echo "  skipped: systemd-analyze verify (no systemd-analyze: apt-get install systemd)"
fi

echo "== installed with dpkg"
if [ "$(id -u)" != 0 ] || ! command -v dpkg >/dev/null; then
  echo "  skipped: needs root and dpkg"
  exit 0
fi
if grep -q installed <<<"$(dpkg-query -W -f '${Status}' gloved 2>/dev/null)"; then
  echo "  skipped: a gloved package is installed here already; not touching it"
  exit 0
fi
# One install test at a time on this machine (dpkg holds its own lock and
# fails rather than waits).
exec 9>/tmp/gloved-check-deb.lock
flock -w 300 9 || fail "another check-deb.sh held its lock for 5 minutes"
had_user=$(getent passwd gloved >/dev/null && echo yes || echo no)
cleanup+=("dpkg -P gloved >/dev/null 2>&1")
[ "$had_user" = yes ] || cleanup+=("userdel gloved >/dev/null 2>&1; groupdel gloved >/dev/null 2>&1")

dpkg -i "$deb" >"$work/dpkg.out" 2>&1 || fail "dpkg -i: $(cat "$work/dpkg.out")"
for path in "${!want[@]}"; do
  [ -e "${path#.}" ] || fail "${path#.} did not land"
done
grep -qx /usr/bin/gloved <<<"$(dpkg -L gloved)" || fail "dpkg -L gloved does not list /usr/bin/gloved"
said=$(/usr/bin/gloved version)
[ "${said%%$'\n'*}" = "gloved $version" ] || fail "installed: $said"
ok "dpkg -i: files in place; /usr/bin/gloved is $version"
grep -qx dialout <<<"$(id -nG gloved | tr ' ' '\n')" || fail "the gloved user is not in dialout: $(id gloved)"
ok "user: $(id gloved)"
# Again over itself, as an upgrade runs it (postinst configure OLDVERSION):
# the user is there already, and nothing is made twice.
dpkg -i "$deb" >"$work/dpkg.out" 2>&1 || fail "dpkg -i over the installed package: $(cat "$work/dpkg.out")"
[ "$(getent passwd gloved | wc -l)" = 1 ] && [ "$(getent group dialout | tr ',' '\n' | grep -cx 'gloved\|.*:gloved')" = 1 ] ||
  fail "a second postinst made the user or its dialout membership twice: $(getent passwd gloved); $(getent group dialout)"
ok "dpkg -i again (postinst configure $version): idempotent"
if command -v systemd-analyze >/dev/null; then
  out=$(systemd-analyze verify /usr/lib/systemd/system/gloved.service 2>&1) || fail "systemd-analyze verify (installed): $out"
  [ -z "$out" ] || fail "systemd-analyze verify (installed) warns: $out"
  ok "systemd-analyze verify /usr/lib/systemd/system/gloved.service: clean"
fi
wants=/etc/systemd/system/multi-user.target.wants/gloved.service
if systemctl enable gloved.service >"$work/enable.out" 2>&1 && [ -L "$wants" ]; then
  ok "systemctl enable (offline): $wants"
else
  echo "  skipped: systemctl enable made no link here: $(cat "$work/enable.out")"
fi

# The installed conffile as the unit's user sees it; then the unit's
# command line, as that user, for three seconds, with a subscriber seeing
# the demo's hand stream. Its ports are moved to free ones (the shipped
# ones may be held by a demo running on this machine): the rest of the
# conffile is as installed.
out=$(runuser -u gloved -- /usr/bin/gloved run -c /etc/gloved/gloved.toml --check 2>&1) || fail "the conffile, as gloved: $out"
ok "conffile as the gloved user: $out"
read -r -a argv <<<"$exec_start"
conf=/etc/gloved/ci-ports.toml
cleanup+=("rm -f $conf")
read -r osc_target osc_listen view <<<"$(python3 -c 'import socket
s=[socket.socket(socket.AF_INET, t) for t in (socket.SOCK_DGRAM, socket.SOCK_DGRAM, socket.SOCK_STREAM)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])' 2>/dev/null || echo 9430 9431 9433)"
sed -e "s/127.0.0.1:9430/127.0.0.1:$osc_target/; s/127.0.0.1:9431/127.0.0.1:$osc_listen/; s/127.0.0.1:9433/127.0.0.1:$view/" /etc/gloved/gloved.toml >"$conf"
for i in "${!argv[@]}"; do [ "${argv[$i]}" != /etc/gloved/gloved.toml ] || argv[$i]=$conf; done
runuser -u gloved -- "${argv[@]}" --for 3s >"$work/run.out" 2>&1 &
daemon=$!
sleep 1
watch=$(/usr/bin/gloved watch --daemon "127.0.0.1:$osc_listen" --for 1s 2>&1) || true
wait "$daemon" || fail "the unit's ExecStart, run by hand as gloved, failed: $(tail -n 5 "$work/run.out")"
grep -q 'right: streaming' <<<"$watch" || fail "gloved watch saw no streaming hand: $watch"
ok "ExecStart as the gloved user (ports $osc_target $osc_listen $view): ran 3 s; gloved watch: $(grep -m1 'right: streaming' <<<"$watch" | tr -s ' ' | cut -c1-80)"
rm -f "$conf"

dpkg -r gloved >"$work/dpkg.out" 2>&1 || fail "dpkg -r: $(cat "$work/dpkg.out")"
[ ! -e /usr/bin/gloved ] || fail "dpkg -r left /usr/bin/gloved"
[ -f /etc/gloved/gloved.toml ] || fail "dpkg -r removed the conffile"
grep -q config-files <<<"$(dpkg-query -W -f '${Status}' gloved)" || fail "after dpkg -r: $(dpkg-query -W -f '${Status}' gloved)"
ok "dpkg -r: the binary gone, /etc/gloved/gloved.toml kept (config-files)"
dpkg -P gloved >"$work/dpkg.out" 2>&1 || fail "dpkg -P: $(cat "$work/dpkg.out")"
[ ! -e /etc/gloved/gloved.toml ] || fail "dpkg -P left the conffile"
[ ! -L "$wants" ] || fail "dpkg -P left $wants"
ok "dpkg -P: the conffile and the enable link gone"
