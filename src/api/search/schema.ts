import { z } from 'zod';
import { domainSchema, versionSchema } from '../../apis/staticexport/spec.js';

export const searchParams = z.object({
  domain: domainSchema.describe('Documentation domain (a project of the key\'s organization).'),
});

// PostgreSQL text cannot hold NUL: refuse it as bad input instead of failing the query.
const noNul = (text: string): boolean => !text.includes('\0');

export const searchBody = z
  .strictObject({
    query: z.string().trim().min(1, 'must not be empty').max(1000).refine(noNul, 'must not contain NUL characters').describe('Words to find; "quoted phrases", or and -exclusions work as in web search.'),
    pageSize: z.number().int().min(1).max(50).default(10).describe('Maximum number of results (1-50, default 10).'),
    scoreThreshold: z.number().min(0).max(1).default(0).describe('Only results with score >= this (0-1, default 0).'),
    filter: z
      .strictObject({
        version: versionSchema.optional().describe('Only this documentation version.'),
        language: z.string().min(1).max(35).refine(noNul, 'must not contain NUL characters').optional().describe('Only sections in this language (as indexed, e.g. en).'),
        tag: z.string().min(1).max(100).refine(noNul, 'must not contain NUL characters').optional().describe('Only sections carrying this tag.'),
      })
      .optional(),
  })
  .describe('A search request.');

export const searchResponse = z
  .array(z.object({
    content: z.string().describe('Text of the matching section.'),
    path: z.string().describe('Site-relative path of the page.'),
    metadata: z.object({
      score: z.number().min(0).max(1).describe('Relevance, 0-1; results are ordered by it.'),
      title: z.string().describe('Page title.'),
      headings: z.array(z.string()).describe('Heading hierarchy from h1 down to the section\'s heading.'),
      anchor: z.string().nullable().describe('Fragment id of the section\'s heading, if it has one.'),
      version: z.string().nullable().describe('Documentation version; null when unversioned.'),
      language: z.string().nullable(),
      tags: z.array(z.string()),
    }),
  }))
  .describe('Matching sections, best first.');
