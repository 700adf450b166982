import { z } from 'zod';

export const PLANS = ['free', 'team', 'enterprise'] as const;
export const planSchema = z.enum(PLANS);
export type Plan = z.infer<typeof planSchema>;

/** admin keys drive analytics and exports; assistant keys only search (they are safe in browsers). */
export const KEY_TYPES = ['admin', 'assistant'] as const;
export const keyTypeSchema = z.enum(KEY_TYPES);
export type KeyType = z.infer<typeof keyTypeSchema>;

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  createdAt: Date;
}

export interface Project {
  id: string;
  organizationId: string;
  domain: string;
  origin: string;
  createdAt: Date;
}

/** What is stored about a key: never the key itself, only its hash and a display prefix. */
export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  type: KeyType;
  name: string;
  /** The first characters of the key (e.g. `dpa_Ab3x`), enough to recognise it in a list. */
  displayPrefix: string;
  createdAt: Date;
  revokedAt?: Date;
}

/** The authenticated caller of one API request. */
export interface Principal {
  keyId: string;
  keyType: KeyType;
  organization: Pick<Organization, 'id' | 'name' | 'plan'>;
}
