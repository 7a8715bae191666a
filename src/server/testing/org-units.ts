import type { OrgUnit } from '../../shared/api/org-units.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import type { TestApp } from './app.ts';
import { requestsAs } from './requests.ts';

/** Makes a unit through the API as `admin`, under `parentId` (MAIN when not given). */
export async function madeUnit(
  t: TestApp,
  admin: { cookie: string },
  code: string,
  parentId?: string,
): Promise<OrgUnit> {
  const main = await orgUnitsRepository.findMain(t.database.db);
  const response = await requestsAs(t)(admin, 'POST', '/api/org-units', {
    code,
    name: `Unit ${code}`,
    parentId: parentId ?? main?.id ?? null,
  });
  if (response.statusCode !== 201) throw new Error(`Unit ${code}: ${response.body}`);
  return response.json<OrgUnit>();
}
