#!/bin/sh
# `npm start`: builds, then serves the folder npm was called from (INIT_CWD), unless a --project names
# others. The server replaces this shell (exec), so a SIGTERM or Ctrl+C sent to npm reaches it.
set -e
parley=$(cd "$(dirname "$0")/.." && pwd)
(cd "$parley" && npm run build)
cd "${INIT_CWD:-$PWD}"
case " $* " in
  *" --project"*) ;;
  *) set -- --project . "$@" ;;
esac
exec node "$parley/dist/cli.cjs" serve "$@"
