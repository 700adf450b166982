import type { PageReference } from '../browser-port.js';
import { isHttpUrl, resolveUrl } from '../url/scope.js';
import type { ExportIndex } from './resolve-reference.js';

/**
 * `<use href="icons.svg#star">` is blocked on file:// (every file is its own origin), so
 * sprites used by a page are inlined into it (hidden) and the references become "#star".
 * Returns the adjusted references and the export paths of the sprites to inline.
 */
export function inlineSpriteUses(references: readonly PageReference[], baseUrl: string, index: ExportIndex): { references: PageReference[]; sprites: string[] } {
  const sprites = new Set<string>();
  const adjusted = references.map((ref) => {
    if (ref.kind !== 'asset' || ref.element !== 'use') return ref;
    const url = resolveUrl(ref.value, baseUrl);
    if (!url || !isHttpUrl(url) || url.hash.length < 2) return ref;
    const target = index.asset(new URL(url.origin + url.pathname + url.search));
    if (target.kind !== 'local' || !/\.svg$/i.test(target.path)) return ref;
    sprites.add(target.path);
    return { ...ref, value: url.hash };
  });
  return { references: adjusted, sprites: [...sprites] };
}

/** Sprite file content as hidden inline markup (XML prolog and doctype removed). */
export function spriteMarkup(svg: string): string {
  const body = svg.replace(/<\?xml[^>]*\?>/gi, '').replace(/<!DOCTYPE[^>]*>/gi, '').replace(/<!--[\s\S]*?-->/g, '').trim();
  return `<div hidden aria-hidden="true" data-docport-sprite="">${body}</div>`;
}
