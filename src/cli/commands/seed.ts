import crypto from 'node:crypto';
import { hashPassword, owaspScryptCost } from '../../server/auth/passwords.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppContext } from '../../server/context.ts';
import { orgUnitsRepository } from '../../server/db/repositories/org-units.ts';
import { usersRepository } from '../../server/db/repositories/users.ts';
import { seedAssessments } from '../../server/services/seed.ts';
import { facilitiesPerDistrict, maxSeededFacilities } from '../../server/services/seed-units.ts';
import { openCommandDatabase } from '../command-context.ts';
import { parseOptions } from '../options.ts';

export const usage = `Usage: triage seed --assessments N [--patients P] [--units U] [--seed S]

Fills the database with N realistic, varied assessments (N a whole number of at least 1); with
--patients, over P patient records with repeat visits (P from 1 to N). With --units, spreads them
over U facilities (1 to ${maxSeededFacilities}) in a tree made under MAIN: a country, regions,
districts of about ${facilitiesPerDistrict} facilities, the facilities; each patient record and
its assessments in one facility, busier facilities seeing more. Without it, every record is in
MAIN. S seeds the choices, the units' codes and names included (1).
`;

const seedUsername = 'seed-data';

/** Seeded records are attributed to a disabled account that nobody can sign in as. */
async function seedUser(context: AppContext): Promise<{ id: string; displayName: string }> {
  const db = context.database.db;
  const existing = await usersRepository.findByUsername(db, seedUsername);
  if (existing !== undefined) return { id: existing.id, displayName: existing.display_name };
  const id = crypto.randomUUID();
  const at = context.now().toISOString();
  await usersRepository.insert(db, {
    id,
    username: seedUsername,
    display_name: 'Seed Data',
    role: 'nurse',
    password_hash: await hashPassword(
      crypto.randomBytes(32).toString('base64url'),
      context.passwordCost,
    ),
    disabled: true,
    created_at: at,
    updated_at: at,
  });
  // It works in MAIN, where its records go (or the tree's top unit when MAIN is renamed).
  const [top] = (await orgUnitsRepository.list(db)).filter((unit) => unit.parent_id === null);
  const home = (await orgUnitsRepository.findMain(db)) ?? top;
  if (home !== undefined) await orgUnitsRepository.setUserUnits(db, id, [home.id]);
  return { id, displayName: 'Seed Data' };
}

export async function runSeedCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const { values } = parseOptions(args, {
    assessments: { type: 'string' },
    patients: { type: 'string' },
    units: { type: 'string' },
    seed: { type: 'string', default: '1' },
  });
  const count = Number(values.assessments);
  const patients = values.patients === undefined ? undefined : Number(values.patients);
  const units = values.units === undefined ? undefined : Number(values.units);
  const seed = Number(values.seed);
  if (
    !Number.isInteger(count) ||
    count < 1 ||
    !Number.isInteger(seed) ||
    (patients !== undefined && (!Number.isInteger(patients) || patients < 1 || patients > count)) ||
    (units !== undefined && (!Number.isInteger(units) || units < 1 || units > maxSeededFacilities))
  ) {
    io.stderr.write(usage);
    return 2;
  }
  const config = loadConfig();
  const { database } = await openCommandDatabase(config);
  try {
    const context: AppContext = {
      config,
      database,
      now: () => new Date(),
      passwordCost: owaspScryptCost,
    };
    const user = await seedUser(context);
    const started = performance.now();
    let lastReport = 0;
    await seedAssessments(context, {
      assessments: count,
      ...(patients === undefined ? {} : { patients }),
      ...(units === undefined ? {} : { units }),
      seed,
      user,
      onProgress: (written) => {
        const now = performance.now();
        if (now - lastReport > 2000 || written === count) {
          lastReport = now;
          const rate = Math.round(written / ((now - started) / 1000));
          io.stdout.write(`Seeded ${written} of ${count} assessments (${rate} a second)\n`);
        }
      },
    });
    return 0;
  } finally {
    await database.close();
  }
}
