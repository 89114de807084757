// The optional browser password, stored only as a slow salted hash: scrypt (Node's own, from
// OpenSSL) with N = 2^15, r = 8, p = 1, a 16-byte random salt and a 64-byte key, compared in
// constant time. The parameters are stored with the hash, so they can be raised later.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { z } from "zod";

export const MIN_PASSWORD_LENGTH = 12;
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 64 } as const;

export const passwordHashSchema = z.object({
  algorithm: z.literal("scrypt"),
  N: z.number().int(),
  r: z.number().int(),
  p: z.number().int(),
  salt: z.string(),
  hash: z.string(),
});
export type PasswordHash = z.infer<typeof passwordHashSchema>;

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  keyLength: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must cover 128 * N * r bytes.
    scrypt(
      password.normalize("NFKC"),
      salt,
      keyLength,
      { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS, PARAMS.keyLength);
  return {
    algorithm: "scrypt",
    N: PARAMS.N,
    r: PARAMS.r,
    p: PARAMS.p,
    salt: salt.toString("base64"),
    hash: key.toString("base64"),
  };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, "base64");
  const key = await derive(password, Buffer.from(stored.salt, "base64"), stored, expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
