import assert from "node:assert/strict";
import {
  AUDIT_ARCH_AARCH64,
  AUDIT_ARCH_X86_64,
  DENY_UNIX_SOCKETS_FILTER,
  SECCOMP_RESULTS,
  SYSCALL_SOCKET,
  type BpfInstruction,
} from "../../../../src/tools/sandbox/seccomp-filter";

/** The program back from its bytes, as the kernel reads them. */
function decode(bytes: Buffer): BpfInstruction[] {
  const program: BpfInstruction[] = [];
  for (let at = 0; at < bytes.length; at += 8)
    program.push({
      code: bytes.readUInt16LE(at),
      jt: bytes.readUInt8(at + 2),
      jf: bytes.readUInt8(at + 3),
      k: bytes.readUInt32LE(at + 4),
    });
  return program;
}

/** A classic-BPF interpreter for the instructions the filter uses, over a `struct seccomp_data`. */
function run(program: BpfInstruction[], data: { nr: number; arch: number; arg0: number; arg0High?: number }): number {
  const words: Record<number, number> = { 0: data.nr, 4: data.arch, 16: data.arg0, 20: data.arg0High ?? 0 };
  const word = (offset: number) => (words[offset] ?? 0) >>> 0;
  let a = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const { code, jt, jf, k } = program[pc]!;
    if (code === 0x20) a = word(k);
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else throw new Error(`unexpected instruction ${code.toString(16)} at ${pc}`);
  }
  throw new Error("fell off the end of the program");
}

const program = decode(DENY_UNIX_SOCKETS_FILTER);
const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;

describe("the seccomp filter against Unix sockets", () => {
  it("refuses socket(AF_UNIX) with EPERM on x86-64 and arm64", () => {
    assert.equal(
      run(program, { arch: AUDIT_ARCH_X86_64, nr: SYSCALL_SOCKET.x86_64, arg0: AF_UNIX }),
      SECCOMP_RESULTS.eperm,
    );
    assert.equal(
      run(program, { arch: AUDIT_ARCH_AARCH64, nr: SYSCALL_SOCKET.aarch64, arg0: AF_UNIX }),
      SECCOMP_RESULTS.eperm,
    );
  });

  it("lets other socket families and every other call through", () => {
    for (const family of [AF_INET, AF_INET6, AF_NETLINK])
      for (const [arch, nr] of [
        [AUDIT_ARCH_X86_64, SYSCALL_SOCKET.x86_64],
        [AUDIT_ARCH_AARCH64, SYSCALL_SOCKET.aarch64],
      ] as const)
        assert.equal(run(program, { arch, nr, arg0: family }), SECCOMP_RESULTS.allow, `family ${family}`);
    // socketpair (53 on x86-64, 199 on arm64), read, write, execve: a program's own pipes keep working.
    for (const nr of [0, 1, 53, 59, 199, 435])
      assert.equal(run(program, { arch: AUDIT_ARCH_X86_64, nr, arg0: AF_UNIX }), SECCOMP_RESULTS.allow, `x86 ${nr}`);
    for (const nr of [63, 64, 199, 221])
      assert.equal(run(program, { arch: AUDIT_ARCH_AARCH64, nr, arg0: AF_UNIX }), SECCOMP_RESULTS.allow, `arm ${nr}`);
  });

  it("reads only the low word of the domain, as the kernel does (an int): high bits set do not get through", () => {
    assert.equal(
      run(program, { arch: AUDIT_ARCH_X86_64, nr: SYSCALL_SOCKET.x86_64, arg0: AF_UNIX, arg0High: 0xffffffff }),
      SECCOMP_RESULTS.eperm,
    );
  });

  it("refuses the x32 ABI's calls and kills a process of an unknown architecture (32-bit socketcall)", () => {
    assert.equal(
      run(program, { arch: AUDIT_ARCH_X86_64, nr: 0x40000000 + SYSCALL_SOCKET.x86_64, arg0: AF_UNIX }),
      SECCOMP_RESULTS.eperm,
    );
    const AUDIT_ARCH_I386 = 0x40000003;
    assert.equal(run(program, { arch: AUDIT_ARCH_I386, nr: 102, arg0: 1 }), SECCOMP_RESULTS.kill);
  });

  it("is encoded as 8-byte sock_filter entries whose jumps all land inside the program", () => {
    assert.equal(DENY_UNIX_SOCKETS_FILTER.length % 8, 0);
    program.forEach(({ code, jt, jf }, pc) => {
      if (code === 0x15 || code === 0x35) {
        assert.ok(pc + 1 + jt < program.length && pc + 1 + jf < program.length, `jump at ${pc}`);
      }
    });
    assert.equal(program.at(-1)!.code, 0x06, "ends with a return");
  });
});
