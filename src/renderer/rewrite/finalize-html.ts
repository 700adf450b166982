import type { PageReference } from '../browser-port.js';
import { rewriteReference, type RewriteContext } from './resolve-reference.js';

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\u00a0/g, '&nbsp;');
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces the placeholder tokens of a snapshot with final values: attributes get their
 * rewritten value (or disappear when the reference is dropped), <style> texts get their
 * rewritten CSS. Tokens carry a random per-run prefix, so page text cannot fake one.
 */
export function applyReferences(html: string, tokenPrefix: string, references: readonly PageReference[], ctx: RewriteContext): string {
  const byToken = new Map(references.map((r) => [r.token, r]));
  const prefix = escapeRegExp(tokenPrefix);
  const resolved = new Map<number, string | null>();
  const valueOf = (token: number): string | null | undefined => {
    if (resolved.has(token)) return resolved.get(token);
    const ref = byToken.get(token);
    if (!ref) return undefined;
    const value = rewriteReference(ref.kind, ref.value, ctx);
    resolved.set(token, value);
    return value;
  };
  const attributes = new RegExp(`\\s([^\\s"'>/=]+)="${prefix}(\\d+)-"`, 'g');
  const withAttributes = html.replace(attributes, (match, name: string, token: string) => {
    const value = valueOf(Number(token));
    if (value === undefined) return match;
    return value === null ? '' : ` ${name}="${escapeAttribute(value)}"`;
  });
  // Whatever tokens remain are <style> texts.
  return withAttributes.replace(new RegExp(`${prefix}(\\d+)-`, 'g'), (match, token: string) => {
    const value = valueOf(Number(token));
    return value === undefined || value === null ? (value === null ? '' : match) : value.replace(/<\/style/gi, '<\\/style');
  });
}

/** Inserts markup just before the last </body> (or at the end when there is none). */
export function injectBeforeBodyEnd(html: string, markup: string): string {
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at < 0 ? html + markup : html.slice(0, at) + markup + html.slice(at);
}
