import type pg from 'pg';
import { ConflictError, InputError, NotFoundError } from '../../domain/errors.js';
import type { IdentityStore } from '../../identity/identity-store.js';
import type { ApiKeyRecord, KeyType, Organization, Plan, Principal, Project } from '../../identity/model.js';
import { runMigrations, type Migration } from './migrations.js';
import { databaseUnavailable } from './pool.js';

const MIGRATIONS: readonly Migration[] = [
  {
    id: '001-identity',
    sql: `
      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE,
        plan text NOT NULL CHECK (plan IN ('free', 'team', 'enterprise')),
        created_at timestamptz NOT NULL DEFAULT now());
      -- Domains are global: search and exports are keyed by them, so two organizations cannot share one.
      CREATE TABLE projects (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        domain text NOT NULL UNIQUE,
        origin text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now());
      CREATE INDEX projects_organization ON projects (organization_id);
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('admin', 'assistant')),
        name text NOT NULL,
        key_hash bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
        display_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz);
      CREATE INDEX api_keys_organization ON api_keys (organization_id);`,
  },
];

interface OrgRow { id: string; name: string; plan: Plan; created_at: Date }
interface ProjectRow { id: string; organization_id: string; domain: string; origin: string; created_at: Date }
interface KeyRow { id: string; organization_id: string; type: KeyType; name: string; display_prefix: string; created_at: Date; revoked_at: Date | null }

const toOrg = (r: OrgRow): Organization => ({ id: r.id, name: r.name, plan: r.plan, createdAt: r.created_at });
const toProject = (r: ProjectRow): Project => ({ id: r.id, organizationId: r.organization_id, domain: r.domain, origin: r.origin, createdAt: r.created_at });
const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id, organizationId: r.organization_id, type: r.type, name: r.name, displayPrefix: r.display_prefix, createdAt: r.created_at,
  ...(r.revoked_at ? { revokedAt: r.revoked_at } : {}),
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class PgIdentityStore implements IdentityStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async create(deps: { pool: pg.Pool }): Promise<PgIdentityStore> {
    await runMigrations(deps.pool, 'identity', MIGRATIONS);
    return new PgIdentityStore(deps.pool);
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (error) {
      const e = error as { code?: string; constraint?: string };
      if (e.code === '23505') throw new ConflictError(uniqueViolationMessage(e.constraint));
      if (e.code === '23503') throw new NotFoundError('organization not found');
      throw databaseUnavailable(error);
    }
  }

  async createOrganization(input: { name: string; plan: Plan }): Promise<Organization> {
    const [row] = await this.query<OrgRow>('INSERT INTO organizations (name, plan) VALUES ($1, $2) RETURNING *', [input.name, input.plan]);
    return toOrg(row!);
  }

  async setPlan(organizationId: string, plan: Plan): Promise<Organization> {
    requireUuid(organizationId, 'organization id');
    const [row] = await this.query<OrgRow>('UPDATE organizations SET plan = $2 WHERE id = $1 RETURNING *', [organizationId, plan]);
    if (!row) throw new NotFoundError(`organization ${organizationId} not found`);
    return toOrg(row);
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.query<OrgRow>('SELECT * FROM organizations ORDER BY created_at, name', [])).map(toOrg);
  }

  async getOrganization(organizationId: string): Promise<Organization | undefined> {
    if (!UUID.test(organizationId)) return undefined;
    const [row] = await this.query<OrgRow>('SELECT * FROM organizations WHERE id = $1', [organizationId]);
    return row ? toOrg(row) : undefined;
  }

  async createProject(input: { organizationId: string; domain: string; origin: string }): Promise<Project> {
    requireUuid(input.organizationId, 'organization id');
    const [row] = await this.query<ProjectRow>(
      'INSERT INTO projects (organization_id, domain, origin) VALUES ($1, $2, $3) RETURNING *', [input.organizationId, input.domain, input.origin]);
    return toProject(row!);
  }

  async listProjects(organizationId?: string): Promise<Project[]> {
    if (organizationId !== undefined) requireUuid(organizationId, 'organization id');
    const rows = await this.query<ProjectRow>(
      'SELECT * FROM projects WHERE $1::uuid IS NULL OR organization_id = $1 ORDER BY created_at, domain', [organizationId ?? null]);
    return rows.map(toProject);
  }

  async getProject(projectId: string): Promise<Project | undefined> {
    if (!UUID.test(projectId)) return undefined;
    const [row] = await this.query<ProjectRow>('SELECT * FROM projects WHERE id = $1', [projectId]);
    return row ? toProject(row) : undefined;
  }

  async findProjectByDomain(domain: string): Promise<Project | undefined> {
    const [row] = await this.query<ProjectRow>('SELECT * FROM projects WHERE domain = $1', [domain]);
    return row ? toProject(row) : undefined;
  }

  async createApiKey(input: { organizationId: string; type: KeyType; name: string; hash: Buffer; displayPrefix: string }): Promise<ApiKeyRecord> {
    requireUuid(input.organizationId, 'organization id');
    const [row] = await this.query<KeyRow>(
      `INSERT INTO api_keys (organization_id, type, name, key_hash, display_prefix) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, organization_id, type, name, display_prefix, created_at, revoked_at`,
      [input.organizationId, input.type, input.name, input.hash, input.displayPrefix]);
    return toKey(row!);
  }

  async listApiKeys(organizationId?: string): Promise<ApiKeyRecord[]> {
    if (organizationId !== undefined) requireUuid(organizationId, 'organization id');
    const rows = await this.query<KeyRow>(
      `SELECT id, organization_id, type, name, display_prefix, created_at, revoked_at FROM api_keys
       WHERE $1::uuid IS NULL OR organization_id = $1 ORDER BY created_at, id`, [organizationId ?? null]);
    return rows.map(toKey);
  }

  async revokeApiKey(keyId: string): Promise<ApiKeyRecord> {
    requireUuid(keyId, 'key id');
    const [row] = await this.query<KeyRow>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
       RETURNING id, organization_id, type, name, display_prefix, created_at, revoked_at`, [keyId]);
    if (!row) throw new NotFoundError(`API key ${keyId} not found`);
    return toKey(row);
  }

  async authenticate(hash: Buffer): Promise<Principal | undefined> {
    const [row] = await this.query<{ key_id: string; type: KeyType; org_id: string; org_name: string; plan: Plan }>(
      `SELECT k.id AS key_id, k.type, o.id AS org_id, o.name AS org_name, o.plan
       FROM api_keys k JOIN organizations o ON o.id = k.organization_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL`, [hash]);
    return row ? { keyId: row.key_id, keyType: row.type, organization: { id: row.org_id, name: row.org_name, plan: row.plan } } : undefined;
  }
}

function requireUuid(value: string, what: string): void {
  if (!UUID.test(value)) throw new InputError(`${what} must be a UUID`);
}

function uniqueViolationMessage(constraint: string | undefined): string {
  if (constraint === 'projects_domain_key') return 'a project with this domain exists already (domains are unique across organizations)';
  if (constraint === 'organizations_name_key') return 'an organization with this name exists already';
  return 'the record exists already';
}
