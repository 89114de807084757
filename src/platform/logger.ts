// Log lines go to stderr (stdout carries only the ready line). Callers never pass secrets here.
export type Logger = {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
};

export function createLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const emit = (level: string) => (line: string) => write(`${new Date().toISOString()} ${level} ${line}\n`);
  return { info: emit("info"), warn: emit("warn"), error: emit("error") };
}
