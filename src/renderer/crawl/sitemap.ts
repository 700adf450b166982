/** Seeds from robots.txt `Sitemap:` lines and sitemap.xml files (urlset and sitemapindex). */

export function sitemapsFromRobots(robotsTxt: string, robotsUrl: string): string[] {
  const out: string[] = [];
  for (const line of robotsTxt.split(/\r?\n/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line.replace(/#.*$/, ''));
    if (!m) continue;
    try {
      out.push(new URL(m[1]!, robotsUrl).href);
    } catch {
      // an unparseable line is ignored, as crawlers do
    }
  }
  return [...new Set(out)];
}

export interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex' | 'unknown';
  locations: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(text.trim());
  if (cdata) return cdata[1]!.trim();
  return text.trim().replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e.startsWith('#x') || e.startsWith('#X')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function parseSitemap(xml: string, sitemapUrl: string): ParsedSitemap {
  const withoutComments = xml.replace(/<!--[\s\S]*?-->/g, '');
  const root = /<(?:[\w-]+:)?(urlset|sitemapindex)\b/i.exec(withoutComments)?.[1]?.toLowerCase();
  const locations: string[] = [];
  for (const m of withoutComments.matchAll(/<(?:[\w-]+:)?loc\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?loc>/gi)) {
    try {
      locations.push(new URL(decodeXmlText(m[1]!), sitemapUrl).href);
    } catch {
      // skip invalid entries
    }
  }
  return { kind: root === 'urlset' || root === 'sitemapindex' ? root : 'unknown', locations };
}
