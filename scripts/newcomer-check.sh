#!/usr/bin/env bash
# Follows README.md as a newcomer would, on the machine's own Node (20 will do), in a fresh clone of
# HEAD: `npm install`, the fake gateway, Parley started against it as "Try it without a gateway key"
# says, and that section's curl commands run as written: a key, a fake/echo chat, its answer. Then
# `npm start -- --project DIR` serves DIR alone, and SIGTERM to `npm start` frees its port within 5 s.
# Everything it starts is stopped, and every wait is bounded; the whole must take under 5 minutes.
#
#   bash scripts/newcomer-check.sh [REPOSITORY]     (default: the repository this script is in)
#   KEEP=1 keeps the temporary folder for a look afterwards.
set -euo pipefail

START=$SECONDS
LIMIT_S=300
SRC=${1:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/parley-newcomer.XXXXXX")
READY=$WORK/parley-ready.json
export APP_HOME=$WORK/app-home # Parley's data goes here, not into ~/.app
FAKE_PG= PARLEY_PG= SECOND_PG=

say() { printf '[newcomer-check %3ss] %s\n' "$((SECONDS - START))" "$*"; }
fail() {
  say "FAILED: $*"
  exit 1
}

# Stops a background job's whole process group: SIGTERM, then SIGKILL after 5 s; waits at most 7 s.
stop_group() {
  local pg=$1 i
  [ -n "$pg" ] || return 0
  kill -TERM -- "-$pg" 2>/dev/null || return 0
  for i in $(seq 50); do kill -0 -- "-$pg" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$pg" 2>/dev/null || true
  for i in $(seq 20); do kill -0 -- "-$pg" 2>/dev/null || return 0; sleep 0.1; done
}
cleanup() {
  local code=$?
  stop_group "$SECOND_PG"
  stop_group "$PARLEY_PG"
  stop_group "$FAKE_PG"
  if [ "${KEEP:-}" = 1 ] || [ "$code" != 0 ]; then say "logs and clone kept in $WORK"; else rm -rf "$WORK"; fi
  say "$([ "$code" = 0 ] && echo PASSED || echo FAILED) in $((SECONDS - START)) s"
}
trap cleanup EXIT

# Waits up to $2 seconds for file $1 to hold a line matching $3.
wait_for_line() {
  local file=$1 seconds=$2 pattern=$3 i
  for i in $(seq $((seconds * 4))); do
    grep -q -- "$pattern" "$file" 2>/dev/null && return 0
    sleep 0.25
  done
  return 1
}
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The system's Node: no node_modules/.bin on PATH, as in a fresh shell.
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v 'node_modules/\.bin' | paste -sd: -)
export PATH
say "node $(node --version) ($(command -v node)), npm $(npm --version); clone of $SRC in $WORK"

# The README's "Try it without a gateway key": its first three sh blocks (fake gateway, Parley, curl).
block() {
  awk -v want="$1" '
    /^## / { inside = ($0 ~ /^## Try it without a gateway key/) }
    inside && /^```sh$/ { n++; grab = (n == want); next }
    /^```/ { grab = 0; next }
    grab { print }' "$WORK/parley/README.md"
}

# --- Install ------------------------------------------------------------------------------------
timeout 60 git clone -q "$SRC" "$WORK/parley" || fail "git clone"
cd "$WORK/parley"
say "npm install"
timeout 240 npm install >"$WORK/npm-install.log" 2>&1 || fail "npm install (see $WORK/npm-install.log)"

FAKE_CMD=$(block 1)
START_CMD=$(block 2)
CURL_CMDS=$(block 3)
[ "$FAKE_CMD" = "npm run fake-gateway" ] || fail "the README's first block is not 'npm run fake-gateway': $FAKE_CMD"
[ -n "$START_CMD" ] && [ -n "$CURL_CMDS" ] || fail "the README's Parley and curl blocks were not found"
START_CMD=${START_CMD//\/tmp\/parley-ready.json/$READY}
CURL_CMDS=${CURL_CMDS//\/tmp\/parley-ready.json/$READY}

set -m   # each background job gets a process group of its own, led by its first command
exec </dev/null

# --- Terminal 1: the fake gateway (on 4318 as the README says, or, if that is taken, PORT=…) ------
FAKE_PORT=4318
if ! port_free $FAKE_PORT; then
  FAKE_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  say "port 4318 is taken: PORT=$FAKE_PORT npm run fake-gateway"
  START_CMD=${START_CMD//127.0.0.1:4318/127.0.0.1:$FAKE_PORT}
fi
say "$FAKE_CMD"
PORT=$FAKE_PORT npm run fake-gateway >"$WORK/fake.out" 2>"$WORK/fake.err" </dev/null &
FAKE_PG=$(jobs -p %%) && disown
wait_for_line "$WORK/fake.out" 60 '"baseUrl"' || fail "the fake gateway did not start: $(cat "$WORK/fake.err")"

# --- Terminal 2: Parley against it ----------------------------------------------------------------
say "$(printf '%s' "$START_CMD" | tr -s ' \\\n' ' ')"
# As written (tee's copy to the terminal and npm's stderr go to files here).
exec 3>&1 4>&2 >"$WORK/parley.out" 2>"$WORK/parley.err"
eval "$START_CMD &"
PARLEY_PG=$(jobs -p %%) && disown # npm start: the first command of the pipeline leads its group
exec >&3 2>&4 3>&- 4>&-
wait_for_line "$READY" 120 '"token"' || fail "no ready line from npm start: $(tail -5 "$WORK/parley.err")"
node -e '
  const r = require(process.argv[1]);
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(r.url) || !r.token || r.projects.length !== 1 || r.projects[0].dir !== process.argv[2])
    throw new Error("unexpected ready line: " + JSON.stringify(r));' "$READY" "$(pwd -P)" || fail "the ready line"
grep -q "is ready" "$WORK/parley.err" || fail "no 'is ready' line on stderr"
say "ready: $(node -p "require('$READY').url") serving $PWD"

# --- Terminal 3: the README's curl commands, as written ------------------------------------------
say "the README's curl commands"
timeout 60 bash -c "$CURL_CMDS" >"$WORK/curl.out" 2>&1 || fail "the curl commands: $(cat "$WORK/curl.out")"
grep -q '"hasApiKey":true' "$WORK/curl.out" || fail "the key was not saved: $(head -c 600 "$WORK/curl.out")"
grep -q '^event: turn.end' "$WORK/curl.out" || fail "the stream did not end with turn.end: $(cat "$WORK/curl.out")"
grep -q '^event: text.delta' "$WORK/curl.out" || fail "no text.delta in the stream: $(cat "$WORK/curl.out")"
tail -n 1 "$WORK/curl.out" | node -e '
  const chat = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const answer = chat.messages.find((m) => m.role === "assistant");
  if (chat.modelId !== "fake/echo" || answer?.content !== "You said: Hello, Parley" || !(chat.usage.cost > 0))
    throw new Error("unexpected transcript: " + JSON.stringify(chat));' || fail "the stored transcript"
say "fake/echo answered: You said: Hello, Parley"

# --- SIGTERM to npm start ends the server and frees its port ----------------------------------------
PARLEY_PORT=$(node -p "new URL(require('$READY').url).port")
kill -TERM "$PARLEY_PG"
for i in $(seq 50); do port_free "$PARLEY_PORT" && ! kill -0 -- "-$PARLEY_PG" 2>/dev/null && break; sleep 0.1; done
port_free "$PARLEY_PORT" || fail "port $PARLEY_PORT still taken 5 s after SIGTERM to npm start"
kill -0 -- "-$PARLEY_PG" 2>/dev/null && fail "npm start's processes still run 5 s after SIGTERM: $(ps -o pid,args -g "$PARLEY_PG")"
PARLEY_PG=
say "SIGTERM to npm start: the server stopped and port $PARLEY_PORT is free"

# --- npm start -- --project DIR serves DIR alone -------------------------------------------------
mkdir -p "$WORK/myproject"
npm start --silent -- --project "$WORK/myproject" --port 0 >"$WORK/second.out" 2>"$WORK/second.err" </dev/null &
SECOND_PG=$(jobs -p %%) && disown
wait_for_line "$WORK/second.out" 120 '"token"' || fail "no ready line from npm start -- --project: $(tail -5 "$WORK/second.err")"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  if (r.projects.length !== 1 || r.projects[0].dir !== process.argv[2]) throw new Error("serves " + JSON.stringify(r.projects));' \
  "$WORK/second.out" "$(cd "$WORK/myproject" && pwd -P)" || fail "npm start -- --project"
say "npm start -- --project DIR serves DIR alone"
stop_group "$SECOND_PG"
SECOND_PG=

[ $((SECONDS - START)) -lt $LIMIT_S ] || fail "took $((SECONDS - START)) s, more than $LIMIT_S s"
