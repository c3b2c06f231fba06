#!/bin/bash
# make slurm-check: the Slurm recipe of docs/reliability.md run for real on this machine.
#
# Installs Debian's slurm-wlm and munge when missing, starts a one-node cluster on localhost
# (munged, slurmctld and slurmd; 2 CPUs, no cgroups: proctrack/linuxproc, task/none) from a
# slurm.conf in a temporary folder (SLURM_CONF), submits the docs' job-array script (the
# ```text block under "As a Slurm job array" in docs/reliability.md, extracted verbatim) for
# configs/nystrom_table3.toml in 4 shards, waits, runs `cosda merge`, and checks that the
# merged points.csv equals an unsharded sweep in every column but heap_peak_bytes (which
# depends on the allocator's history). It then stops the daemons it started and removes their
# state. The outcome goes to results/slurm/last_run.md. Not part of `make test`.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
DOC=docs/reliability.md
COSDA=build/bin/cosda
RECORD=results/slurm/last_run.md
PYTHON=/usr/bin/python3
START=$(date +%s)
STATE=""
STEP="setup"

log() { echo "slurm-check: $*"; }

# results/slurm/last_run.md: when, which build, which Slurm, how long, the outcome.
record() {
  local result=$1 version
  version=$(sinfo --version 2>/dev/null || echo "not installed")
  mkdir -p "$(dirname "$RECORD")"
  {
    echo "# Last run of make slurm-check"
    echo
    echo "Written by scripts/slurm_check.sh (docs/reliability.md, \"Shards\")."
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "- commit: ${BUILD_COMMIT:-not read} (the build's, as the sweep's meta.json records it)"
    echo "- Slurm: $version (one node: $(hostname -s), 2 CPUs, proctrack/linuxproc, task/none)"
    echo "- job: the job-array script of docs/reliability.md (${CONFIG:-config not read}," \
      "${SHARDS:-?} shards)"
    echo "- seconds: $(($(date +%s) - START))"
    echo "- result: $result"
  } > "$RECORD"
}

stop_daemons() {
  [ -n "$STATE" ] || return 0
  if [ -f "$STATE/slurm.conf" ] && [ -n "${JOB:-}" ]; then
    SLURM_CONF=$STATE/slurm.conf scancel "$JOB" 2>/dev/null || true
  fi
  for pidfile in "$STATE/run/slurmd.pid" "$STATE/run/slurmctld.pid" "$STATE/munge/munged.pid"; do
    if [ -s "$pidfile" ]; then
      local pid
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
  done
  rm -rf "$STATE"
}

finish() {
  local status=$?
  if [ $status -ne 0 ]; then
    log "FAILED at: $STEP"
    record "FAIL at: $STEP"
  fi
  stop_daemons
  exit $status
}
trap finish EXIT

# Packages.
STEP="installing slurm-wlm and munge"
missing=""
for p in slurm-wlm munge; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    log "missing Debian packages; run: sudo apt-get install -y$missing"
    exit 1
  fi
  log "installing:$missing"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing \
    > /dev/null
fi
[ -x "$COSDA" ] || { log "$COSDA is not built (make build)"; exit 1; }

# A free TCP port on localhost.
free_port() {
  "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The cluster: state, keys, logs and sockets in one temporary folder.
STEP="starting munged"
STATE=$(mktemp -d /tmp/cosda-slurm.XXXXXX)
mkdir -p "$STATE/munge" "$STATE/ctld" "$STATE/d" "$STATE/log" "$STATE/run" "$STATE/out"
chmod 700 "$STATE/munge"
dd if=/dev/urandom of="$STATE/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$STATE/munge/munge.key"
munged --force --key-file="$STATE/munge/munge.key" --socket="$STATE/munge/munge.socket" \
  --pid-file="$STATE/munge/munged.pid" --log-file="$STATE/munge/munged.log" \
  --seed-file="$STATE/munge/munged.seed"
for _ in $(seq 50); do [ -S "$STATE/munge/munge.socket" ] && break; sleep 0.1; done

STEP="writing slurm.conf"
NODE=$(hostname -s)
CTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port)
export SLURM_CONF=$STATE/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=cosda
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$STATE/munge/munge.socket
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/run/slurmctld.pid
SlurmdPidFile=$STATE/run/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=local Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF

STEP="starting slurmctld (log: slurmctld.log)"
slurmctld -f "$SLURM_CONF"
STEP="starting slurmd (log: slurmd.log)"
slurmd -f "$SLURM_CONF"
STEP="waiting for the node to be idle"
for _ in $(seq 100); do
  state=$(sinfo -h -N -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || {
  log "node state '$state'"
  tail -n 5 "$STATE/log/slurmctld.log" "$STATE/log/slurmd.log" || true
  exit 1
}
log "$(sinfo --version): node $NODE idle"

# The job-array script, verbatim from the docs.
STEP="extracting the job-array script from $DOC"
awk '/As a Slurm job array/ { found = 1 } found && /```text/ { inside = 1; next }
     inside && /```/ { exit } inside { sub(/^  /, ""); print }' "$DOC" > "$STATE/array.sh"
grep -q -- '--array=' "$STATE/array.sh" || { log "no job-array script in $DOC"; exit 1; }
CONFIG=$(grep -o 'configs/[a-z0-9_]*\.toml' "$STATE/array.sh" | head -n 1)
NAME=$(basename "$CONFIG" .toml)
SHARDS=$(sed -n 's/.*--array=1-\([0-9][0-9]*\).*/\1/p' "$STATE/array.sh" | head -n 1)

STEP="submitting the job array"
JOB=$(sbatch --parsable --chdir="$ROOT" --output="$STATE/log/array-%a.out" \
  --export=ALL,COSDA_OUT="$STATE/out" "$STATE/array.sh")
log "submitted job array $JOB: $CONFIG in $SHARDS shards"

STEP="running the unsharded sweep"
"$COSDA" sweep "$CONFIG" --no-report --out "$STATE/whole" > /dev/null
BUILD_COMMIT=$(sed -n 's/^  "git_commit": "\(.*\)",$/\1/p' "$STATE/whole/$NAME/meta.json")

STEP="waiting for job array $JOB"
for _ in $(seq 1800); do
  [ -z "$(squeue -h -j "$JOB" 2>/dev/null)" ] && break
  sleep 1
done
[ -z "$(squeue -h -j "$JOB")" ] || { log "job array $JOB still queued after 30 minutes"; exit 1; }
for k in $(seq "$SHARDS"); do
  if [ ! -f "$STATE/out/$NAME/shard-$k-of-$SHARDS/points.csv" ]; then
    log "shard $k of $SHARDS wrote no points.csv:"
    cat "$STATE/log/array-$k.out" || true
    exit 1
  fi
done
log "job array $JOB done: $SHARDS shards"

STEP="cosda merge"
"$COSDA" merge "$STATE/out/$NAME"/shard-*-of-"$SHARDS" --no-report --out "$STATE/merged" \
  > /dev/null

STEP="comparing the merged points.csv with the unsharded run"
"$PYTHON" - "$STATE/merged/$NAME/points.csv" "$STATE/whole/$NAME/points.csv" <<'PY'
import csv, sys
merged, whole = ([row for row in csv.DictReader(open(p, newline=""))] for p in sys.argv[1:])
assert len(merged) == len(whole) > 0, (len(merged), len(whole))
for i, (a, b) in enumerate(zip(merged, whole)):
    assert list(a) == list(b), "columns differ"
    for col in a:
        if col != "heap_peak_bytes" and a[col] != b[col]:
            sys.exit(f"row {i + 2}, column {col}: merged {a[col]!r}, unsharded {b[col]!r}")
print(f"slurm-check: merged points.csv equals the unsharded run: {len(merged)} rows, "
      f"{len(merged[0]) - 1} columns compared (heap_peak_bytes aside)")
PY
record "PASS: $SHARDS array tasks, merged points.csv equals the unsharded run ($NAME, every column but heap_peak_bytes)"
log "PASS in $(($(date +%s) - START)) s; recorded in $RECORD"
