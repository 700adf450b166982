import type { Context, Next } from 'koa';
import { AuthenticationError, NotAllowedError } from '../../domain/errors.js';
import { hashApiKey, KEY_PREFIX, keyTypeOf } from '../../identity/api-keys.js';
import type { IdentityStore } from '../../identity/identity-store.js';
import type { KeyType } from '../../identity/model.js';
import type { ApiState } from '../state.js';

const describeKey = (type: KeyType): string => `an ${type} key (${KEY_PREFIX[type]}_...)`;

/**
 * `Authorization: Bearer <key>`. Missing, malformed, unknown and revoked keys are all 401 (the
 * message does not say which of the last two); a valid key of the other type is 403 and names the
 * type needed. The key itself never appears in a message.
 */
export function authenticate(identity: Pick<IdentityStore, 'authenticate'>, needed: KeyType) {
  return async (ctx: Context & { state: ApiState }, next: Next): Promise<void> => {
    const header = ctx.get('Authorization');
    if (header === '') throw new AuthenticationError(`missing API key: send "Authorization: Bearer <key>" with ${describeKey(needed)}`);
    const match = /^Bearer +(\S+)$/i.exec(header);
    if (!match || keyTypeOf(match[1]!) === undefined) {
      throw new AuthenticationError(`malformed Authorization header: expected "Bearer <key>" with ${describeKey(needed)}`);
    }
    const principal = await identity.authenticate(hashApiKey(match[1]!));
    if (!principal) throw new AuthenticationError('unknown or revoked API key');
    if (principal.keyType !== needed) {
      throw new NotAllowedError(`this endpoint needs ${describeKey(needed)}; ${describeKey(principal.keyType)} was sent`);
    }
    ctx.state.principal = principal;
    await next();
  };
}
