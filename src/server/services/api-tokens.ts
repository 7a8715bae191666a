import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import { apiTokensRepository } from '../db/repositories/api-tokens.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { recordAudit } from './audit.ts';
import { unitOfNewClient } from './client-units.ts';
import type { Requester } from './users.ts';

/** Names are shown in the audit trail as `api-token:NAME`, so they are plain words. */
const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The prefix marks a token for what it is (in a secret scanner, in a leaked configuration). */
const tokenPrefix = 'triage_';

/** A token as a request carries it, for the guard: which one it is, never the token. */
export interface ApiTokenIdentity {
  id: string;
  name: string;
  /** The unit it is registered for: it reads that unit's records and those below. */
  unitId: string;
}

export interface ApiTokenSummary {
  name: string;
  /** The code of the unit it is registered for. */
  unit: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** The audit trail's actor for a token's use: its name, since the token itself is never kept. */
export function apiTokenActor(token: ApiTokenIdentity): { id: null; username: string } {
  return { id: null, username: `api-token:${token.name}` };
}

function tokenHash(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}

function checkName(name: string): void {
  if (!namePattern.test(name)) {
    throw new AppError(
      400,
      'validation_failed',
      'A token name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.',
      'name',
    );
  }
}

/**
 * Makes a token for a unit (by its code; see unitOfNewClient): 256 random bits, returned this
 * once; only its SHA-256 is stored, which suffices for a value that cannot be guessed (no salt or
 * slow hash is needed as for a password).
 */
export async function createApiToken(
  context: AppContext,
  requester: Requester,
  name: string,
  unitCode?: string,
): Promise<{ name: string; token: string; unit: string }> {
  checkName(name);
  const token = `${tokenPrefix}${crypto.randomBytes(32).toString('base64url')}`;
  const now = context.now();
  const unit = await context.database.transaction(async (trx) => {
    const unit = await unitOfNewClient(trx, unitCode);
    if ((await apiTokensRepository.findLiveByName(trx, name)) !== undefined) {
      throw new AppError(409, 'conflict', `A live API token is already named ${name}.`, 'name');
    }
    await apiTokensRepository.insert(trx, {
      id: timeOrderedId(now.getTime()),
      name,
      token_hash: tokenHash(token),
      created_at: now.toISOString(),
      created_by: requester.user?.id ?? null,
      revoked_at: null,
      last_used_at: null,
      org_unit_id: unit.id,
    });
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'api_token_create',
      target: { type: 'api_token', id: name },
      address: requester.address,
      detail: `unit ${unit.code}`,
    });
    return unit;
  });
  return { name, token, unit: unit.code };
}

export async function revokeApiToken(
  context: AppContext,
  requester: Requester,
  name: string,
): Promise<void> {
  const now = context.now();
  await context.database.transaction(async (trx) => {
    if (!(await apiTokensRepository.revoke(trx, name, now.toISOString()))) {
      throw new AppError(404, 'not_found', `No live API token is named ${name}.`, 'name');
    }
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'api_token_revoke',
      target: { type: 'api_token', id: name },
      address: requester.address,
    });
  });
}

export async function listApiTokens(context: AppContext): Promise<ApiTokenSummary[]> {
  const rows = await apiTokensRepository.list(context.database.db);
  return rows.map((row) => ({
    name: row.name,
    unit: row.unit_code,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  }));
}

/** The live token a request presents, or undefined; its last use is noted. */
export async function resolveApiToken(
  context: AppContext,
  token: string,
): Promise<ApiTokenIdentity | undefined> {
  if (!token.startsWith(tokenPrefix)) return undefined;
  const db = context.database.db;
  const row = await apiTokensRepository.findLiveByHash(db, tokenHash(token));
  if (row === undefined) return undefined;
  await apiTokensRepository.markUsed(db, row.id, context.now().toISOString());
  return { id: row.id, name: row.name, unitId: row.org_unit_id };
}
