import type { Context } from 'koa';
import { InputError } from '../../domain/errors.js';
import { RequestError } from '../errors.js';

/**
 * Reads a JSON body of at most `limitBytes`. An announced Content-Length over the limit is
 * refused before reading; a chunked body is counted as it arrives. Returns undefined for no body.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  const announced = ctx.get('Content-Length');
  const chunked = ctx.get('Transfer-Encoding') !== '';
  if (!chunked && (announced === '' || Number(announced) === 0)) return undefined;
  const tooLarge = (): RequestError => {
    // The body is not (fully) read: closing the connection stops the upload of the rest.
    ctx.set('Connection', 'close');
    return new RequestError(413, `request body too large: the limit is ${limitBytes} bytes`);
  };
  if (Number(announced) > limitBytes) throw tooLarge();
  if (!ctx.is('application/json')) {
    throw new RequestError(415, `unsupported content type "${ctx.get('Content-Type') || '(none)'}": send application/json`);
  }
  const chunks = await collect(ctx, limitBytes);
  if (chunks === undefined) throw tooLarge();
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError('malformed JSON body', [{ path: 'body', message: `body: malformed JSON (${(error as Error).message})` }]);
  }
}

/**
 * Collects the body, or returns undefined once it exceeds the limit. Past the limit the rest is
 * drained and dropped (so the client can read the 413 instead of seeing a reset), up to a cap
 * after which the connection is cut.
 */
function collect(ctx: Context, limitBytes: number): Promise<Buffer[] | undefined> {
  const drainCap = limitBytes * 8;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    ctx.req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) chunks.push(chunk);
      else if (size > drainCap) ctx.req.destroy();
    });
    ctx.req.once('end', () => resolve(size <= limitBytes ? chunks : undefined));
    ctx.req.once('close', () => resolve(size <= limitBytes ? chunks : undefined));
    ctx.req.once('error', reject);
  });
}
