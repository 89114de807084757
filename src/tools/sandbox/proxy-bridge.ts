// Inside a Linux sandbox whose settings list hosts, the command's network namespace holds only a
// loopback interface, and the seccomp filter forbids Unix sockets: nothing inside can reach Parley by
// itself. The bridge is a small Node program that starts first inside the sandbox, listens on
// 127.0.0.1:PROXY_PORT there, and hands every connection it accepts to Parley over the IPC channel it
// inherited (the file descriptor travels with the message, SCM_RIGHTS, so no new socket is needed).
// Parley answers it as the proxy (./host-list-proxy.ts). Then the bridge runs the command and exits
// with its status. It is passed to `node -e` as a constant: no user input is part of its text.

/** The loopback port the proxy listens on inside the sandbox. */
export const PROXY_PORT = 3128;

/** The IPC channel's place in the spawned process's file descriptors (3 carries the seccomp filter). */
export const BRIDGE_IPC_FD = 4;

/** argv after `node -e BRIDGE_SOURCE`: the port, then the command and its arguments. */
export const BRIDGE_SOURCE = `
const net = require("node:net");
const { spawn } = require("node:child_process");
const { constants } = require("node:os");
const [port, command, ...args] = process.argv.slice(1);
const fail = (message) => { process.stderr.write("parley sandbox proxy: " + message + "\\n"); process.exit(126); };
const server = net.createServer({ pauseOnConnect: true }, (socket) => process.send("connection", socket));
server.on("error", (error) => fail(error.message));
server.listen(Number(port), "127.0.0.1", () => {
  const env = { ...process.env };
  for (const name of ["NODE_CHANNEL_FD", "NODE_CHANNEL_SERIALIZATION_MODE", "ELECTRON_RUN_AS_NODE"]) delete env[name];
  const child = spawn(command, args, { stdio: "inherit", env });
  child.on("error", (error) => fail(error.message));
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
});
`;

/** The bridge's command line around a command (`node -e … PORT command args…`). */
export function bridgeCommand(
  node: string,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return { command: node, args: ["-e", BRIDGE_SOURCE, String(PROXY_PORT), command, ...args] };
}

/** What the command sees: every common spelling of the proxy variables, pointing at the bridge. */
export function proxyEnvironment(url = `http://127.0.0.1:${PROXY_PORT}`): Record<string, string> {
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: "",
    no_proxy: "",
    // Node's own fetch and http honour the variables only when told to (Node 24).
    NODE_USE_ENV_PROXY: "1",
  };
}
