import fs from 'node:fs';
import path from 'node:path';
import { roles, type Role } from '../shared/api/users.ts';

/** Everything the server reads from its environment, parsed once and validated. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded SQLite database is used. */
  databaseUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** Force the Secure cookie attribute (it is also set whenever the request arrived over HTTPS). */
  cookieSecure: boolean;
  /** IANA time zone of the clinic: history date filters cover whole days in this zone. */
  timeZone: string;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  /** Folder of the built web app; the default is where `npm run build` puts it. */
  webRoot: string | undefined;
  /** The FHIR identifier system (a URI) under which the clinic's patient numbers are exported. */
  patientIdSystem: string;
  /** The FHIR identifier system (a URI) under which organisation unit codes are exported. */
  orgUnitIdSystem: string;
  /**
   * The product's public base URL (scheme, host and any path, no trailing slash), as the clinic's
   * record system reaches it: the CDS Hooks service's `aud` and its cards' links are built from it;
   * unset, from the request's protocol and host.
   */
  publicUrl: string | undefined;
  /** A Bearer token that may read GET /api/metrics without a session (a Prometheus server's). */
  metricsToken: string | undefined;
  /** Days after an assessment with a condition at High that the patient is due for follow-up. */
  followUpDaysHigh: number;
  /** Days after an assessment with a condition at Moderate (and none at High). */
  followUpDaysModerate: number;
  /** On SIGTERM, how long requests in flight may take before their connections are closed. */
  shutdownTimeoutSeconds: number;
  /** The roles whose users must sign in with a second factor (after the grace below). */
  mfaRequiredRoles: readonly Role[];
  /**
   * Days a user in a required role may still sign in with a password alone, from the first
   * sign-in at which the requirement applied to them; 0: they enrol at that sign-in.
   */
  mfaGraceDays: number;
  /** Hours a FHIR bulk export's files are kept after it completes; then they are deleted. */
  bulkExportHours: number;
  /** PostgreSQL connections the server's pool may hold at once. */
  databasePoolSize: number;
  /** Password hashes (scrypt, about 130 MB each while it runs) computed at once; the rest wait. */
  passwordHashConcurrency: number;
  /** Sign-in through the organisation's OpenID Connect provider; undefined when OIDC_ISSUER is unset. */
  oidc: OidcSettings | undefined;
  /**
   * Whether passwords sign in (LOCAL_SIGN_IN); when false, only accounts marked break-glass may,
   * and everyone else signs in through the provider.
   */
  localSignIn: boolean;
  /** Launching as a SMART app from a record system; undefined when SMART_CLIENT_ID is unset. */
  smart: SmartSettings | undefined;
}

export interface SmartSettings {
  /** The client id the record system registered this product under. */
  clientId: string;
  /** The FHIR base URLs allowed to launch the app, without a trailing slash. */
  issuers: readonly string[];
  /** The scopes asked for, space-separated (with patient/RiskAssessment.c when writing back). */
  scopes: string;
  /** Whether a saved assessment's RiskAssessments go back into the record. */
  writeBack: boolean;
  /** A record value older than this many days is shown beside its field but not put in it. */
  maxAgeDays: number;
  /** Where the record's authorization server sends the browser back: PUBLIC_URL + /smart/callback. */
  redirectUri: string;
  /** The launch URL an EHR administrator registers: PUBLIC_URL + /smart/launch. */
  launchUrl: string;
}

/** One value of the role claim that gives a role (OIDC_ROLE_MAP). */
export interface OidcRoleMapping {
  role: Role;
  claimValue: string;
}

export interface OidcSettings {
  /** The issuer's URL exactly as the provider states it in its discovery document. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The text after 'Sign in with' on the gate. */
  displayName: string;
  scopes: string;
  /** The claim holding the user's groups or roles; a dotted path reads nested claims. */
  roleClaim: string;
  roleMap: readonly OidcRoleMapping[];
  /** A claim holding organisation unit codes; read by nothing yet (units are not built). */
  unitClaim: string | undefined;
  /** `acr` values that count as a second factor done at the provider. */
  mfaAcr: readonly string[];
  /** Where the provider sends the browser back: PUBLIC_URL + /api/session/oidc/callback. */
  redirectUri: string;
  /** Where the provider's sign-out sends the browser back: PUBLIC_URL + /. */
  postLogoutRedirectUri: string;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An absolute URI: a scheme, then no white space (FHIR's `uri`), that URL parsing accepts. */
function isUri(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(text) && URL.canParse(text);
}

/** An http(s) base URL without query or fragment; returned without a trailing slash. */
function publicUrlOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const problem =
    'must be an http:// or https:// URL without a query or fragment, such as https://triage.clinic.example';
  if (!URL.canParse(raw)) throw new ConfigError('PUBLIC_URL', `${problem} (got "${raw}")`);
  const url = new URL(raw);
  if (
    !['http:', 'https:'].includes(url.protocol) ||
    url.search !== '' ||
    url.hash !== '' ||
    raw.includes('?') ||
    raw.includes('#')
  ) {
    throw new ConfigError('PUBLIC_URL', `${problem} (got "${raw}")`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** A metrics token is long enough that it cannot be guessed, and fits in a header as it is. */
function metricsTokenOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{32,512}$/.test(raw)) {
    throw new ConfigError(
      'METRICS_TOKEN',
      'must be 32 to 512 printable characters without spaces (such as the output of openssl rand -hex 32)',
    );
  }
  return raw;
}

/** A comma-separated list of the product's roles; unset is `admin`, the empty string none. */
function mfaRequiredRolesOf(raw: string | undefined): Role[] {
  if (raw === undefined) return ['admin'];
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.find((name) => !(roles as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new ConfigError(
      'MFA_REQUIRED_ROLES',
      `must be a comma-separated list of ${roles.join(', ')}, or empty for none (got "${unknown}")`,
    );
  }
  return [...new Set(names as Role[])];
}

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/** An https:// issuer, or http:// on a loopback address (local trials and tests). */
function issuerOf(raw: string): string {
  const problem =
    'must be the https:// URL of the OpenID Connect provider (http:// only on a loopback address), such as https://login.clinic.example/realms/staff';
  if (!URL.canParse(raw)) throw new ConfigError('OIDC_ISSUER', `${problem} (got "${raw}")`);
  const url = new URL(raw);
  const loopback = loopbackHosts.includes(url.hostname) || /^127\./.test(url.hostname);
  if (
    !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new ConfigError('OIDC_ISSUER', `${problem} (got "${raw}")`);
  }
  return raw;
}

function clientSecretOf(env: Env): string {
  const inline = env.OIDC_CLIENT_SECRET || undefined;
  const file = env.OIDC_CLIENT_SECRET_FILE || undefined;
  if (inline !== undefined && file !== undefined) {
    throw new ConfigError(
      'OIDC_CLIENT_SECRET_FILE',
      'is set with OIDC_CLIENT_SECRET; set only one of them',
    );
  }
  if (file !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8').trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new ConfigError('OIDC_CLIENT_SECRET_FILE', `cannot be read: ${file} (${code})`);
    }
    if (text === '') throw new ConfigError('OIDC_CLIENT_SECRET_FILE', `is empty: ${file}`);
    return text;
  }
  if (inline === undefined) {
    throw new ConfigError(
      'OIDC_CLIENT_SECRET',
      'is required with OIDC_ISSUER (or OIDC_CLIENT_SECRET_FILE naming a file that holds it)',
    );
  }
  return inline;
}

/** `role=claim-value` pairs, comma-separated; a role may be given by several values. */
function roleMapOf(raw: string | undefined): OidcRoleMapping[] {
  const problem = `must be comma-separated pairs role=claim-value, each role one of ${roles.join(', ')}, such as nurse=clinic-nurse,admin=triage-admin`;
  if (raw === undefined || raw.trim() === '') {
    throw new ConfigError('OIDC_ROLE_MAP', `is required with OIDC_ISSUER: ${problem}`);
  }
  const mappings = raw
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const role = pair.slice(0, equals).trim();
      const claimValue = pair.slice(equals + 1).trim();
      if (equals < 1 || claimValue === '' || !(roles as readonly string[]).includes(role)) {
        throw new ConfigError('OIDC_ROLE_MAP', `${problem} (got "${pair}")`);
      }
      return { role: role as Role, claimValue };
    });
  const values = mappings.map((mapping) => mapping.claimValue);
  const repeated = values.find((value, at) => values.indexOf(value) !== at);
  if (repeated !== undefined) {
    throw new ConfigError(
      'OIDC_ROLE_MAP',
      `gives the claim value "${repeated}" more than one role`,
    );
  }
  return mappings;
}

function oidcOf(env: Env, publicUrl: string | undefined): OidcSettings | undefined {
  const rawIssuer = env.OIDC_ISSUER || undefined;
  if (rawIssuer === undefined) {
    const stray = [
      'OIDC_CLIENT_ID',
      'OIDC_CLIENT_SECRET',
      'OIDC_CLIENT_SECRET_FILE',
      'OIDC_ROLE_MAP',
    ].find((name) => (env[name] ?? '') !== '');
    if (stray !== undefined) {
      throw new ConfigError(
        stray,
        'is set without OIDC_ISSUER; set OIDC_ISSUER to sign in through the provider',
      );
    }
    return undefined;
  }
  const issuer = issuerOf(rawIssuer);
  const clientId = env.OIDC_CLIENT_ID || undefined;
  if (clientId === undefined) {
    throw new ConfigError(
      'OIDC_CLIENT_ID',
      'is required with OIDC_ISSUER (the client id the provider gave this product)',
    );
  }
  if (publicUrl === undefined) {
    throw new ConfigError(
      'PUBLIC_URL',
      'is required with OIDC_ISSUER: the provider sends the browser back to PUBLIC_URL/api/session/oidc/callback',
    );
  }
  const scopes = (env.OIDC_SCOPES || 'openid profile email').trim().split(/\s+/);
  if (!scopes.includes('openid')) {
    throw new ConfigError('OIDC_SCOPES', `must include openid (got "${env.OIDC_SCOPES}")`);
  }
  const roleClaim = env.OIDC_ROLE_CLAIM || 'roles';
  if (!/^[^\s.]+(\.[^\s.]+)*$/.test(roleClaim)) {
    throw new ConfigError(
      'OIDC_ROLE_CLAIM',
      `must be a claim name, or a dotted path such as realm_access.roles (got "${roleClaim}")`,
    );
  }
  return {
    issuer,
    clientId,
    clientSecret: clientSecretOf(env),
    displayName: env.OIDC_DISPLAY_NAME?.trim() || 'your organisation',
    scopes: scopes.join(' '),
    roleClaim,
    roleMap: roleMapOf(env.OIDC_ROLE_MAP),
    unitClaim: env.OIDC_UNIT_CLAIM?.trim() || undefined,
    mfaAcr: (env.OIDC_MFA_ACR ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter((value) => value !== ''),
    redirectUri: `${publicUrl}/api/session/oidc/callback`,
    postLogoutRedirectUri: `${publicUrl}/`,
  };
}

export const defaultSmartScopes =
  'launch openid fhirUser patient/Patient.rs patient/Observation.rs patient/Condition.rs patient/FamilyMemberHistory.rs';

/** The scope that lets the app create RiskAssessments in the record (SMART_WRITE_BACK). */
export const writeBackScope = 'patient/RiskAssessment.c';

/** A FHIR base URL allowed to launch: https://, or http:// on a loopback address; no trailing slash. */
function smartIssuerOf(raw: string): string {
  const problem =
    'must be comma-separated https:// FHIR base URLs of the record systems allowed to launch the app (http:// only on a loopback address), such as https://ehr.clinic.example/fhir/R4';
  if (!URL.canParse(raw)) throw new ConfigError('SMART_ISSUERS', `${problem} (got "${raw}")`);
  const url = new URL(raw);
  const loopback = loopbackHosts.includes(url.hostname) || /^127\./.test(url.hostname);
  if (
    !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new ConfigError('SMART_ISSUERS', `${problem} (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function smartOf(env: Env, publicUrl: string | undefined): SmartSettings | undefined {
  const clientId = env.SMART_CLIENT_ID?.trim() || undefined;
  if (clientId === undefined) {
    const stray = ['SMART_ISSUERS', 'SMART_SCOPES', 'SMART_WRITE_BACK'].find(
      (name) => (env[name] ?? '') !== '',
    );
    if (stray !== undefined) {
      throw new ConfigError(
        stray,
        'is set without SMART_CLIENT_ID; set SMART_CLIENT_ID to let record systems launch the app',
      );
    }
    return undefined;
  }
  const issuers = (env.SMART_ISSUERS ?? '')
    .split(',')
    .map((issuer) => issuer.trim())
    .filter((issuer) => issuer !== '')
    .map(smartIssuerOf);
  if (issuers.length === 0) {
    throw new ConfigError(
      'SMART_ISSUERS',
      'is required with SMART_CLIENT_ID: the FHIR base URLs of the record systems allowed to launch the app, comma-separated',
    );
  }
  if (publicUrl === undefined) {
    throw new ConfigError(
      'PUBLIC_URL',
      "is required with SMART_CLIENT_ID: the record's authorization server sends the browser back to PUBLIC_URL/smart/callback",
    );
  }
  const writeBack = flag(env, 'SMART_WRITE_BACK');
  const scopes = (env.SMART_SCOPES?.trim() || defaultSmartScopes).split(/\s+/);
  if (!scopes.includes('launch')) {
    throw new ConfigError('SMART_SCOPES', `must include launch (got "${env.SMART_SCOPES}")`);
  }
  if (writeBack && !scopes.includes(writeBackScope)) scopes.push(writeBackScope);
  return {
    clientId,
    issuers: [...new Set(issuers)],
    scopes: scopes.join(' '),
    writeBack,
    maxAgeDays: integer(env, 'SMART_MAX_AGE_DAYS', 365, 1, 36500),
    redirectUri: `${publicUrl}/smart/callback`,
    launchUrl: `${publicUrl}/smart/launch`,
  };
}

/** LOCAL_SIGN_IN: true unless set false; false needs a provider to sign in through. */
function localSignInOf(env: Env, oidc: OidcSettings | undefined): boolean {
  const raw = env.LOCAL_SIGN_IN;
  if (raw === undefined || raw === '' || raw === 'true' || raw === '1') return true;
  if (raw !== 'false' && raw !== '0') {
    throw new ConfigError('LOCAL_SIGN_IN', `must be true or false (got "${raw}")`);
  }
  if (oidc === undefined) {
    throw new ConfigError(
      'LOCAL_SIGN_IN',
      'is false without OIDC_ISSUER: only break-glass accounts could sign in; set OIDC_ISSUER too',
    );
  }
  return false;
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// or postgresql://');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!(logLevels as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${logLevels.join(', ')}`);
  }
  const timeZone = env.TRIAGE_TIME_ZONE || 'UTC';
  if (!isTimeZone(timeZone)) {
    throw new ConfigError('TRIAGE_TIME_ZONE', `is not a known time zone (got "${timeZone}")`);
  }
  const patientIdSystem = env.TRIAGE_PATIENT_ID_SYSTEM || 'urn:triage:patient-number';
  if (!isUri(patientIdSystem)) {
    throw new ConfigError(
      'TRIAGE_PATIENT_ID_SYSTEM',
      `must be an absolute URI such as urn:triage:patient-number (got "${patientIdSystem}")`,
    );
  }
  const orgUnitIdSystem = env.TRIAGE_ORG_UNIT_ID_SYSTEM || 'urn:triage:org-unit';
  if (!isUri(orgUnitIdSystem)) {
    throw new ConfigError(
      'TRIAGE_ORG_UNIT_ID_SYSTEM',
      `must be an absolute URI such as urn:triage:org-unit (got "${orgUnitIdSystem}")`,
    );
  }
  const host = env.HOST || '127.0.0.1';
  const publicUrl = publicUrlOf(env.PUBLIC_URL);
  const oidc = oidcOf(env, publicUrl);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    logLevel: logLevel as Config['logLevel'],
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 30, 1, 24 * 60),
    sessionAbsoluteHours: integer(env, 'SESSION_ABSOLUTE_HOURS', 12, 1, 24 * 7),
    cookieSecure: flag(env, 'COOKIE_SECURE'),
    timeZone,
    adminUsername: env.TRIAGE_ADMIN_USERNAME || undefined,
    adminPassword: env.TRIAGE_ADMIN_PASSWORD || undefined,
    webRoot: env.WEB_ROOT ? path.resolve(env.WEB_ROOT) : undefined,
    patientIdSystem,
    orgUnitIdSystem,
    publicUrl,
    metricsToken: metricsTokenOf(env.METRICS_TOKEN),
    followUpDaysHigh: integer(env, 'FOLLOW_UP_DAYS_HIGH', 30, 1, 3650),
    followUpDaysModerate: integer(env, 'FOLLOW_UP_DAYS_MODERATE', 90, 1, 3650),
    shutdownTimeoutSeconds: integer(env, 'SHUTDOWN_TIMEOUT_SECONDS', 30, 0, 3600),
    mfaRequiredRoles: mfaRequiredRolesOf(env.MFA_REQUIRED_ROLES),
    mfaGraceDays: integer(env, 'MFA_GRACE_DAYS', 7, 0, 90),
    bulkExportHours: integer(env, 'BULK_EXPORT_HOURS', 24, 1, 24 * 30),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    passwordHashConcurrency: integer(env, 'PASSWORD_HASH_CONCURRENCY', 2, 1, 64),
    oidc,
    localSignIn: localSignInOf(env, oidc),
    smart: smartOf(env, publicUrl),
  };
}
