/** Web app manifests (rel=manifest): their icon and screenshot URLs are assets too. */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const IMAGE_LISTS = ['icons', 'screenshots'];

function forEachImage(manifest: Json, visit: (holder: { src: string }) => void): void {
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) return;
  const lists = [...IMAGE_LISTS.map((k) => manifest[k])];
  const shortcuts = manifest.shortcuts;
  if (Array.isArray(shortcuts)) for (const s of shortcuts) if (s && typeof s === 'object' && !Array.isArray(s)) lists.push(s.icons);
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (item && typeof item === 'object' && !Array.isArray(item) && typeof item.src === 'string') visit(item as { src: string });
    }
  }
}

export function isWebManifest(contentType: string | undefined, url: string): boolean {
  return /manifest\+json/i.test(contentType ?? '') || /\.webmanifest$/i.test(new URL(url).pathname);
}

/** The image URLs a manifest lists, as written. */
export function manifestImageUrls(text: string): string[] {
  const urls: string[] = [];
  try {
    forEachImage(JSON.parse(text) as Json, (img) => urls.push(img.src));
  } catch {
    // not JSON: nothing to follow
  }
  return urls;
}

/** The manifest with every image URL mapped (null drops the image); unparseable text is kept. */
export function rewriteManifest(text: string, map: (src: string) => string | null): string {
  let manifest: Json;
  try {
    manifest = JSON.parse(text) as Json;
  } catch {
    return text;
  }
  const dropped = new Set<object>();
  forEachImage(manifest, (img) => {
    const next = map(img.src);
    if (next === null) dropped.add(img);
    else img.src = next;
  });
  if (manifest && typeof manifest === 'object' && !Array.isArray(manifest)) {
    for (const key of IMAGE_LISTS) {
      const list = manifest[key];
      if (Array.isArray(list)) manifest[key] = list.filter((i) => !(i && typeof i === 'object' && dropped.has(i)));
    }
    // start_url and scope point at the live site; relative ones keep the copy self-contained.
    if (typeof manifest.start_url === 'string') manifest.start_url = map(manifest.start_url) ?? '.';
    if (typeof manifest.scope === 'string') delete manifest.scope;
  }
  return JSON.stringify(manifest, null, 2);
}
