/**
 * SMART system scopes for the FHIR read API (SMART App Launch 2.x): `system/Patient.rs`,
 * `system/*.rs`, a single `r` (read by id) or `s` (search). The v1 form `system/Type.read` means
 * the same as `.rs` and is written so. The API only reads, so no other permission is granted.
 */

/** The resource types the FHIR API serves, as scopes name them. */
export const FHIR_SCOPE_TYPES = [
  'Patient',
  'RiskAssessment',
  'Observation',
  'Condition',
  'Organization',
] as const;

/** A scope as the server holds it: a resource type (or `*`) and the permissions it gives. */
export interface SystemScope {
  type: string;
  /** Of `r` (read) and `s` (search). */
  permissions: ReadonlySet<'r' | 's'>;
}

/** Why a scope is not one this server grants, for the refusal's description. */
export type ScopeParse = { scopes: SystemScope[] } | { problem: string };

const scopePattern = /^system\/(\*|[A-Z][A-Za-z]{0,63})\.(read|rs|r|s)$/;

/** The scopes of a space-separated scope text, or the first one that is not a read scope. */
export function parseScopes(text: string): ScopeParse {
  const words = text.split(' ').filter((word) => word !== '');
  if (words.length === 0) return { problem: 'No scope is named.' };
  const scopes: SystemScope[] = [];
  for (const word of words) {
    const match = scopePattern.exec(word);
    if (match === null) {
      return {
        problem: `The scope ${word.slice(0, 100)} is not a system read scope (system/Type.rs, system/*.rs, .r, .s or v1 .read).`,
      };
    }
    const [, type = '', permissions = ''] = match;
    scopes.push({
      type,
      permissions: new Set(permissions === 'read' ? ['r', 's'] : [...permissions]) as Set<
        'r' | 's'
      >,
    });
  }
  return { scopes };
}

/** The scopes in v2 syntax, space-separated, as they are granted and stored. */
export function scopeText(scopes: readonly SystemScope[]): string {
  const words = scopes.map((scope) => {
    const letters = (['r', 's'] as const).filter((letter) => scope.permissions.has(letter));
    return `system/${scope.type}.${letters.join('')}`;
  });
  return [...new Set(words)].join(' ');
}

/** Whether the scopes let a client do `permission` on resources of `type`. */
export function allows(
  scopes: readonly SystemScope[],
  type: string,
  permission: 'r' | 's',
): boolean {
  return scopes.some(
    (scope) => (scope.type === '*' || scope.type === type) && scope.permissions.has(permission),
  );
}

/** Whether every permission the requested scopes name is given by the registered ones. */
export function within(
  requested: readonly SystemScope[],
  registered: readonly SystemScope[],
): boolean {
  return requested.every((scope) =>
    [...scope.permissions].every((permission) =>
      scope.type === '*'
        ? registered.some((held) => held.type === '*' && held.permissions.has(permission))
        : allows(registered, scope.type, permission),
    ),
  );
}
