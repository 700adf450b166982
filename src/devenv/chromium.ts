import { existsSync } from 'node:fs';
import { MissingComponentError } from './service-process.js';

/** Debian's Chromium; Playwright's own browser download cannot work here. */
export function chromiumPath(candidate = '/usr/bin/chromium'): string {
  if (!existsSync(candidate)) throw new MissingComponentError('Chromium', `no browser at ${candidate}; run \`make deps\` (installs Debian's chromium)`);
  return candidate;
}

/**
 * Flags for headless Chromium on a machine with no outside network. WebRTC must not send
 * UDP around the egress proxy: Debian's Chromium 156 honours `--webrtc-ip-handling-policy`
 * (the `--force-` spelling alone still sends STUN packets); both are given.
 */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--no-first-run', '--disable-sync', '--disable-quic', '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];
