import { createHash, randomBytes } from 'node:crypto';
import type { KeyType } from './model.js';

/**
 * Key format: `<prefix>_<43 base64url chars>` (256 random bits). The prefixes are distinct and
 * never overlap, and the logger redacts both, so a key that reaches a log line is masked.
 */
export const KEY_PREFIX: Readonly<Record<KeyType, string>> = { admin: 'dpa', assistant: 'dps' };
const KEY_PATTERN = /^(dpa|dps)_([A-Za-z0-9_-]{43})$/;
const DISPLAY_CHARS = 8;

export interface GeneratedKey {
  /** The secret: shown to the operator once, never stored. */
  key: string;
  hash: Buffer;
  displayPrefix: string;
}

export function generateApiKey(type: KeyType): GeneratedKey {
  const key = `${KEY_PREFIX[type]}_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, KEY_PREFIX[type].length + 1 + DISPLAY_CHARS) };
}

/**
 * SHA-256 is the right hash here: keys carry 256 random bits, so there is nothing to brute-force
 * and a slow password hash would only cost latency on every request.
 */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The key type a well-formed key claims, or undefined for anything malformed. */
export function keyTypeOf(key: string): KeyType | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return match[1] === 'dpa' ? 'admin' : 'assistant';
}
