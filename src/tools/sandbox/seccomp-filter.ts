// A seccomp filter (classic BPF, as bubblewrap's `--seccomp FD` reads it) that refuses to create
// Unix-domain sockets inside the sandbox. Why: a read-only bind of `/` still lets a process connect
// to any socket file it can see, and some of those are worth more than the network: the Docker
// socket (root on the host), an SSH or GPG agent, the D-Bus session bus (the keyring). `socket(AF_UNIX)`
// fails with EPERM; `socketpair` (pipes between a program's own processes) is unaffected. Pure.

/** `struct seccomp_data` offsets: the syscall number, the audit architecture, the first argument's low word. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const AF_UNIX = 1;

export const AUDIT_ARCH_X86_64 = 0xc000003e;
export const AUDIT_ARCH_AARCH64 = 0xc00000b7;
/** x86-64's x32 ABI numbers its calls from here; none is allowed (nothing Parley runs uses it). */
const X32_SYSCALL_BIT = 0x40000000;
export const SYSCALL_SOCKET = { x86_64: 41, aarch64: 198 } as const;

export type BpfInstruction = { code: number; jt: number; jf: number; k: number };

const ld = (offset: number): BpfInstruction => ({ code: BPF_LD_W_ABS, jt: 0, jf: 0, k: offset });
const ret = (value: number): BpfInstruction => ({ code: BPF_RET_K, jt: 0, jf: 0, k: value >>> 0 });

/**
 * The program, in order. Unknown architectures (a 32-bit program on a 64-bit kernel, which could
 * reach `socket` through `socketcall`) are killed rather than let through.
 */
export function denyUnixSocketsProgram(): BpfInstruction[] {
  // Indexes, so the jumps below read as targets; a jump's offset counts from the next instruction.
  const CHECK_DOMAIN = 8;
  const ALLOW = 10;
  const DENY = 11;
  const KILL = 12;
  const program: BpfInstruction[] = [];
  const jump = (code: number, k: number, jt: number, jf: number) => {
    const at = program.length + 1;
    program.push({ code, jt: jt - at, jf: jf - at, k: k >>> 0 });
  };
  program.push(ld(OFFSET_ARCH)); // 0
  jump(BPF_JEQ_K, AUDIT_ARCH_X86_64, 2, 5); // 1
  program.push(ld(OFFSET_NR)); // 2
  jump(BPF_JGE_K, X32_SYSCALL_BIT, DENY, 4); // 3
  jump(BPF_JEQ_K, SYSCALL_SOCKET.x86_64, CHECK_DOMAIN, ALLOW); // 4
  jump(BPF_JEQ_K, AUDIT_ARCH_AARCH64, 6, KILL); // 5
  program.push(ld(OFFSET_NR)); // 6
  jump(BPF_JEQ_K, SYSCALL_SOCKET.aarch64, CHECK_DOMAIN, ALLOW); // 7
  program.push(ld(OFFSET_ARG0_LOW)); // 8
  jump(BPF_JEQ_K, AF_UNIX, DENY, ALLOW); // 9
  program.push(ret(SECCOMP_RET_ALLOW)); // 10
  program.push(ret(SECCOMP_RET_ERRNO | EPERM)); // 11
  program.push(ret(SECCOMP_RET_KILL_PROCESS)); // 12
  return program;
}

/** `struct sock_filter[]` as the kernel reads it: 8 bytes each, in the machine's (little-endian) byte order. */
export function encodeProgram(program: readonly BpfInstruction[]): Buffer {
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, i) => {
    if (instruction.jt < 0 || instruction.jt > 255 || instruction.jf < 0 || instruction.jf > 255)
      throw new Error(`seccomp filter: jump out of range at ${i}`);
    bytes.writeUInt16LE(instruction.code, i * 8);
    bytes.writeUInt8(instruction.jt, i * 8 + 2);
    bytes.writeUInt8(instruction.jf, i * 8 + 3);
    bytes.writeUInt32LE(instruction.k, i * 8 + 4);
  });
  return bytes;
}

export const DENY_UNIX_SOCKETS_FILTER: Buffer = encodeProgram(denyUnixSocketsProgram());

export const SECCOMP_RESULTS = {
  allow: SECCOMP_RET_ALLOW,
  eperm: (SECCOMP_RET_ERRNO | EPERM) >>> 0,
  kill: SECCOMP_RET_KILL_PROCESS,
} as const;
