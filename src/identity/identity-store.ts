import type { KeyType, Organization, Plan, Principal, Project, ApiKeyRecord } from './model.js';

/** Organizations, projects and API keys (PostgreSQL is the adapter: src/adapters/postgres). */
export interface IdentityStore {
  createOrganization(input: { name: string; plan: Plan }): Promise<Organization>;
  setPlan(organizationId: string, plan: Plan): Promise<Organization>;
  listOrganizations(): Promise<Organization[]>;
  getOrganization(organizationId: string): Promise<Organization | undefined>;

  /** ConflictError when the domain is registered already (domains are global: search is keyed by them). */
  createProject(input: { organizationId: string; domain: string; origin: string }): Promise<Project>;
  listProjects(organizationId?: string): Promise<Project[]>;
  getProject(projectId: string): Promise<Project | undefined>;
  findProjectByDomain(domain: string): Promise<Project | undefined>;

  /** Stores the hash of a freshly generated key; returns the record (the key itself stays with the caller). */
  createApiKey(input: { organizationId: string; type: KeyType; name: string; hash: Buffer; displayPrefix: string }): Promise<ApiKeyRecord>;
  listApiKeys(organizationId?: string): Promise<ApiKeyRecord[]>;
  /** Idempotent; NotFoundError for an unknown key id. */
  revokeApiKey(keyId: string): Promise<ApiKeyRecord>;
  /** The caller behind a key hash, or undefined when the key is unknown or revoked. */
  authenticate(hash: Buffer): Promise<Principal | undefined>;
}
