import { randomBytes } from 'node:crypto';

/**
 * A job id is the name of its StaticExport: `job-` and 26 lower-case base32 characters
 * (130 random bits), a valid Kubernetes name that cannot collide or be guessed.
 */
export const JOB_ID_PATTERN = /^job-[a-z2-7]{26}$/;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function newJobId(): string {
  const bytes = randomBytes(26);
  let id = 'job-';
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}
