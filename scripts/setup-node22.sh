#!/usr/bin/env bash
# Installs Node 22.15.0 under .cache/node22 (git-ignored): the Node of VS Code 1.101's extension host,
# the oldest that Parley's engines.vscode claims. test/integration/packaged-extension.test.ts loads the
# packaged vsix under it. It is not a dev dependency: the npm package `node` names its binary `node`,
# and a second one in node_modules can take over node_modules/.bin/node (which every npm script runs).
# About 30 s and 120 MB the first time; a no-op afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .cache/node22/node_modules/node/bin/node ]; then
  npm install --no-audit --no-fund --no-save --prefix .cache/node22 node@22.15.0
fi
.cache/node22/node_modules/node/bin/node --version
