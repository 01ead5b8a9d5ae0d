#!/bin/bash
# SPDX-License-Identifier: ISC
# tests/vm/limits_guest.sh DEST BINDIR LIBDIR PKGLIBEXECDIR SYSCONFDIR LIMITSPAWN CHECKMOD - run
# inside the VM by tests/integration/limits_vm.sh: ruas's cgroup limits
# (memory_max, tasks_max, cpu_max, cgroup_parent) for real, on the sudo
# backend as a non-root supervisor with a delegated cgroup (what systemd's
# Delegate=yes gives a service) and on the pam backend as root, each
# attacked as the target would. DEST is the build installed with
# DESTDIR=DEST; LIMITSPAWN (tests/vm/limitspawn.c) spawns a project through
# the library, as an embedder does, without the startup checks: their walk
# of the trusted trees over the VM's 9p share would outlast any bound.
# CHECKMOD is the Ansible role's ruas_check module, run here as Ansible runs
# it, to see that it checks from the supervisor's leaf when told the unit.
# Prints KEY=VALUE lines for the host to judge.
set -u
dest=$1 bindir=$2 libdir=$3 pkglibexecdir=$4 sysconfdir=$5 LS=$6 CHECKMOD=$7
RUAS=$dest$bindir/ruas HELPER=$dest$pkglibexecdir/ruas-exec SESSION=$dest$pkglibexecdir/ruas-session
export LD_LIBRARY_PATH=$dest$libdir
sup_uid=56910 t1_uid=56911
. "$(dirname "$0")/ruas_host.sh"
# A cgroup that is root's alone: no place for sup's runs.
mkdir "$C/rootonly"

# The agents. Each says where it ran; the hog touches 300 MB.
own='cat /proc/self/cgroup'
hog='python3 -c "b = bytearray(300 << 20); print(len(b))"'
forky='import os, time
cg = "/sys/fs/cgroup" + open("/proc/self/cgroup").read().split(":", 2)[2].strip()
ok = refused = 0
for i in range(100):
    try:
        pid = os.fork()
    except OSError:
        refused += 1
        continue
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    ok += 1
print("forked=%d refused=%d current=%s" % (ok, refused, open(cg + "/pids.current").read().strip()), flush=True)'
busy='import os, time
cg = "/sys/fs/cgroup" + open("/proc/self/cgroup").read().split(":", 2)[2].strip()
def usage():
    for line in open(cg + "/cpu.stat"):
        if line.startswith("usage_usec "):
            return int(line.split()[1])
u0, t0 = usage(), time.monotonic()
kids = []
for i in range(2):
    pid = os.fork()
    if pid == 0:
        end = time.monotonic() + 3
        while time.monotonic() < end:
            pass
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
u1, t1 = usage(), time.monotonic()
print("cpu_per_mille=%d" % ((u1 - u0) / ((t1 - t0) * 1e6) * 1000), flush=True)'
escape='cg=/sys/fs/cgroup$(cut -d: -f3 /proc/self/cgroup)
for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/sup.service/cgroup.procs /sys/fs/cgroup/sup.service/supervisor/cgroup.procs "$cg/../cgroup.procs"; do
  if echo $$ 2>/dev/null >"$f"; then echo "moved-to=$f"; fi
done
for f in memory.max pids.max cpu.max cgroup.subtree_control; do
  if echo max 2>/dev/null >"$cg/$f"; then echo "wrote=$f"; fi
done
if mkdir "$cg/mine" 2>/dev/null; then echo made-child; fi
cat /proc/self/cgroup'
cfgstr() { python3 -c 'import sys; print("\"" + sys.argv[1].replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"")' "$1"; }
projects() {
	cat <<EOC
projects = (
  { name = "hog"; run_as_user = "t1"; work_dir = "/srv/work"; memory_max = "64M";
    command = ["bash", "-c", $(cfgstr "$hog")]; },
  { name = "forky"; run_as_user = "t1"; work_dir = "/srv/work"; tasks_max = 20;
    command = ["python3", "-c", $(cfgstr "$forky")]; },
  { name = "busy"; run_as_user = "t1"; work_dir = "/srv/work"; cpu_max = 0.5;
    command = ["python3", "-c", $(cfgstr "$busy")]; },
  { name = "where"; run_as_user = "t1"; work_dir = "/srv/work"; memory_max = "256M";
    command = ["bash", "-c", $(cfgstr "$own")]; },
  { name = "plain"; run_as_user = "t1"; work_dir = "/srv/work";
    command = ["bash", "-c", $(cfgstr "$own")]; },
  { name = "escape"; run_as_user = "t1"; work_dir = "/srv/work"; memory_max = "256M"; tasks_max = 50;
    command = ["bash", "-c", $(cfgstr "$escape")]; },
  { name = "marker"; run_as_user = "t1"; work_dir = "/srv/work"; tasks_max = 50;
    command = ["bash", "-c", "echo ran > \"\$HOME/marker\""]; }
);
EOC
}
conf() { # NAME BACKEND AUDIT_DIR [GLOBAL_LINE]
	{
		printf 'helper = %s;\nsession_helper = %s;\nbackend = "%s";\n' \
			"$(cfgstr "$HELPER")" "$(cfgstr "$SESSION")" "$2"
		printf 'audit_log = %s;\n' "$(cfgstr "$3/log.jsonl")"
		[ $# -ge 4 ] && printf '%s\n' "$4"
		projects
	} >"/etc/ruas-vm/$1.conf"
	chmod 644 "/etc/ruas-vm/$1.conf"
}
mkdir -m 0700 /var/log/ruas-sup /var/log/ruas-root /var/log/ruas-bad
chown sup: /var/log/ruas-sup /var/log/ruas-bad
conf sup sudo /var/log/ruas-sup "cgroup_parent = \"$D\";"
# (Its check's walk of the trusted trees stops at once: a fatal finding of
# its own beside the one this is about.)
conf bad sudo /var/log/ruas-bad "cgroup_parent = \"$C/rootonly\"; scan_time_limit = 1;"
conf root pam /var/log/ruas-root

# Before sup's service has moved itself into its leaf, its check says so.
conf early sudo /var/log/ruas-sup "cgroup_parent = \"$D\"; scan_time_limit = 1;"
(echo $BASHPID >"$D/cgroup.procs" &&
	sup_env "$RUAS" -c /etc/ruas-vm/early.conf check >/tmp/out 2>/tmp/err </dev/null
	echo "early.check.rc=$?"
	echo "early.check.says=$(cat /tmp/out /tmp/err | grep -c 'sup.service" holds processes of its own')"
	echo "early.check.fix=$(cat /tmp/out /tmp/err | grep -c 'move it into "/sys/fs/cgroup/sup.service/supervisor" as it starts)')")
sup_service_start | sed 's/^/sup.leaf=/'
left() { pgrep -u t1 | wc -l; }
settled() { # nothing of t1 left, within 10 s (polled)
	for _ in $(seq 100); do
		[ "$(left)" = 0 ] && break
		sleep 0.1
	done
	left
}
# run KEY WHO CONF PROJECT: a spawn of PROJECT, its status, output and what it left.
run() {
	local key=$1 who=$2 cf=/etc/ruas-vm/$3.conf project=$4
	if [ "$who" = sup ]; then
		as_sup "$LS" "$cf" "$project" >/tmp/out 2>/tmp/err </dev/null
	else
		"$LS" "$cf" "$project" >/tmp/out 2>/tmp/err </dev/null
	fi
	echo "$key.rc=$?"
	sed "s/^/$key.out=/" /tmp/out
	sed "s/^/$key.err=/" /tmp/err
	echo "$key.left=$(settled)"
}
for who in sup root; do
	cf=$who
	run "$who.hog" $who $cf hog
	run "$who.forky" $who $cf forky
	run "$who.busy" $who $cf busy
	run "$who.where" $who $cf where
	run "$who.plain" $who $cf plain
	run "$who.escape" $who $cf escape
	echo "$who.runs_left=$(find $C -mindepth 2 -type d -name 'run-*' | wc -l)"
	python3 - "/var/log/ruas-$who/log.jsonl" "$who" <<'EOP'
import json, sys
ends = [r for r in map(json.loads, open(sys.argv[1])) if r["event"] == "end"]
print("%s.limits=%s " % (sys.argv[2], " ".join(r["limit"] for r in ends)))
# The hog's peak is at its memory_max (64M) or just below; every run with a cgroup used CPU.
hog = ends[0]
ok = (isinstance(hog["memory_peak"], int) and 32 << 20 <= hog["memory_peak"] <= 64 << 20
      and all(isinstance(r["cpu_usec"], int) and r["cpu_usec"] > 0 for r in ends
              if r["project"] != "plain")
      and all(r["memory_peak"] is None and r["cpu_usec"] is None for r in ends
              if r["project"] == "plain"))
print("%s.usage=%s" % (sys.argv[2], "ok" if ok else json.dumps(ends)))
EOP
done
# No writable cgroup_parent: a fatal check, and nothing starts.
as_sup "$RUAS" -c /etc/ruas-vm/bad.conf check >/tmp/out 2>/tmp/err </dev/null
echo "bad.check.rc=$?"
echo "bad.check.says=$(cat /tmp/out /tmp/err | grep -c 'none can be made')"
rm -f /home/t1/marker
run bad.run sup bad marker
echo "bad.marker=$(test -e /home/t1/marker && echo yes || echo no)"
# What pam_systemd does, done by pam_exec: ruas-session (its caller) moved
# to a cgroup of its own as the session opens. The run must stay in its.
mkdir "$C/logind-scope"
cat >/usr/local/sbin/ruas-vm-move <<'EOM'
#!/bin/sh
echo "$PPID" >/sys/fs/cgroup/logind-scope/cgroup.procs && echo moved >>/var/log/ruas-vm-moved
EOM
chmod 755 /usr/local/sbin/ruas-vm-move
echo 'session optional pam_exec.so /usr/local/sbin/ruas-vm-move' >>/etc/pam.d/ruas
run moved root root where
echo "moved.by_pam=$(cat /var/log/ruas-vm-moved 2>/dev/null | wc -l)"
run moved_plain root root plain
# The same in sudo's session stack: sudo itself is moved, before ruas's helper runs.
# (pam_exec runs as sudo's real uid, the supervisor's, unless seteuid.)
echo 'session optional pam_exec.so seteuid /usr/local/sbin/ruas-vm-move' >>/etc/pam.d/sudo
: >/var/log/ruas-vm-moved
rm -f /home/t1/marker
run sudo_moved sup sup marker
echo "sudo_moved.by_pam=$(wc -l </var/log/ruas-vm-moved)"
echo "sudo_moved.marker=$(test -e /home/t1/marker && echo yes || echo no)"
run sudo_moved_plain sup sup plain
# The role's ruas_check, as root, told the supervisor's unit: it checks from
# the service's leaf (systemctl here names the unit's cgroup, as systemd
# would); without the unit it checks from where Ansible runs (here the top),
# from where the supervisor could not move a run into its cgroup.
printf '#!/bin/sh\n[ "$*" = "show -p ControlGroup --value -- sup.service" ] && echo /sup.service\n' \
	>/tmp/systemctl
chmod 755 /tmp/systemctl
# (The module gives ruas a clean environment: the build's libraries by a wrapper.)
# It first says who runs it, and where: uid, groups, effective capabilities, cgroup.
printf '#!/bin/sh\necho "$(id -u) $(id -G) $(sed -n "s/^CapEff:\\t//p" /proc/self/status) $(cut -d: -f3 /proc/self/cgroup)" >/tmp/checkwho\nLD_LIBRARY_PATH=%s exec %s "$@"\n' \
	"$LD_LIBRARY_PATH" "$RUAS" >/tmp/ruas
chmod 755 /tmp/ruas
# checkmod_args UNIT: the module's arguments, as Ansible hands them over, in /tmp/args.json.
checkmod_args() {
	python3 - /tmp/ruas "$1" >/tmp/args.json <<'EOP'
import json, sys
print(json.dumps({"ANSIBLE_MODULE_ARGS": {
    "user": "sup", "ruas": sys.argv[1], "config": "/etc/ruas-vm/early.conf",
    "unit": sys.argv[2], "systemctl": "/tmp/systemctl", "cgroup_root": "/sys/fs/cgroup"}}))
EOP
}
for how in leaf here; do
	unit=sup.service
	[ $how = here ] && unit=
	checkmod_args "$unit"
	python3 "$CHECKMOD" /tmp/args.json >/tmp/out 2>/tmp/err </dev/null
	python3 - $how /tmp/out <<'EOP'
import json, sys
r = json.loads(open(sys.argv[2]).read())
how = sys.argv[1]
print("checkmod.%s.cgroup=%s" % (how, r.get("cgroup")))
print("checkmod.%s.limits=%d" % (how, sum(": limits: " in f for f in r.get("fatal", []))))
print("checkmod.%s.ran=%d" % (how, "report" in r))
print("checkmod.%s.msg=%s" % (how, " ".join(str(r.get("msg", "")).split())[:400]))
EOP
	echo "checkmod.$how.who=$(cat /tmp/checkwho)"
	rm -f /tmp/checkwho
done
# The supervisor freezes its leaf: what the module's child joins it as is
# the supervisor's own (no process of root's held there), and it goes on
# once thawed.
checkmod_args sup.service
sup_env sh -c 'echo 1 >"$1/supervisor/cgroup.freeze"' _ "$D"
timeout 300 python3 "$CHECKMOD" /tmp/args.json >/tmp/out 2>/tmp/err </dev/null &
mod=$!
joined=
for _ in $(seq 600); do # until a process is in the frozen leaf (polled, at most 60 s)
	joined=$(head -1 "$D/supervisor/cgroup.procs")
	[ -n "$joined" ] && break
	sleep 0.1
done
echo "frozen.joined_uid=$([ -n "$joined" ] && awk '/^Uid:/ {print $2 "," $3 "," $4 "," $5}' "/proc/$joined/status")"
echo "frozen.joined_caps=$([ -n "$joined" ] && sed -n 's/^CapEff:\t//p' "/proc/$joined/status")"
sup_env sh -c 'echo 0 >"$1/supervisor/cgroup.freeze"' _ "$D"
wait $mod
echo "frozen.module_rc=$?"
echo "frozen.ran=$(python3 -c 'import json, sys; print(int("report" in json.load(open(sys.argv[1]))))' /tmp/out)"
echo "leftover=$(find $C -mindepth 2 -type d -name 'run-*' | wc -l)"
