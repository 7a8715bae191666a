import { expect } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { OrgUnit, OrgUnitTree } from '../../shared/api/org-units.ts';
import type { Patient } from '../../shared/api/patients.ts';
import type { Role } from '../../shared/permissions.ts';
import type { TestApp } from './app.ts';
import { requestsAs } from './requests.ts';
import { woman62 } from './export-samples.ts';
import { signedInAs } from './users.ts';

/** A signed-in user of some units. */
export interface UnitUser {
  cookie: string;
  userId: string;
}

/** What one facility holds: a patient record and its signed-off assessment. */
export interface FacilityRecords {
  unit: OrgUnit;
  nurse: UnitUser;
  doctor: UnitUser;
  patient: Patient;
  assessment: Assessment;
}

/**
 * A district (D) under MAIN with two sibling facilities (A and B), each with a nurse, a doctor, a
 * patient record numbered alike (numbers are unique within a unit only) and a signed-off High
 * risk assessment of that patient; and a manager and an administrator of the district.
 */
export interface SiblingFacilities {
  main: OrgUnit;
  district: OrgUnit;
  a: FacilityRecords;
  b: FacilityRecords;
  topAdmin: UnitUser;
  manager: UnitUser;
  districtAdmin: UnitUser;
}

export async function siblingFacilities(
  t: TestApp,
  names: { a: string; b: string } = { a: 'Facility A', b: 'Facility B' },
): Promise<SiblingFacilities> {
  const call = requestsAs(t);
  const topAdmin = await signedInAs(t, 'admin');
  const tree = await call(topAdmin, 'GET', '/api/org-units');
  const main = tree.json<OrgUnitTree>().items.find((unit) => unit.code === 'MAIN');
  if (main === undefined) throw new Error('No MAIN unit');
  const add = async (code: string, name: string, parentId: string) => {
    const response = await call(topAdmin, 'POST', '/api/org-units', { code, name, parentId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<OrgUnit>();
  };
  const district = await add('D-1', 'District One', main.id);
  let made = 0;
  const userOf = (role: Role, unitId: string): Promise<UnitUser> => {
    made += 1;
    return signedInAs(t, role, `${role}-${made}`, undefined, [unitId]);
  };
  const facility = async (code: string, name: string): Promise<FacilityRecords> => {
    const unit = await add(code, name, district.id);
    const nurse = await userOf('nurse', unit.id);
    const doctor = await userOf('doctor', unit.id);
    const patientResponse = await call(nurse, 'POST', '/api/patients', {
      number: 'P-100',
      name: `${name} Patient`,
    });
    expect(patientResponse.statusCode, patientResponse.body).toBe(201);
    const patient = patientResponse.json<Patient>();
    const saved = await call(nurse, 'POST', '/api/assessments', {
      ...woman62,
      patientId: patient.id,
      notes: `${name} note`,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const signed = await call(
      nurse,
      'POST',
      `/api/assessments/${saved.json<Assessment>().id}/sign-off`,
      undefined,
      { 'if-match': `"${saved.json<Assessment>().version}"` },
    );
    expect(signed.statusCode, signed.body).toBe(200);
    return { unit, nurse, doctor, patient, assessment: signed.json<Assessment>() };
  };
  const a = await facility('F-A', names.a);
  const b = await facility('F-B', names.b);
  return {
    main,
    district,
    a,
    b,
    topAdmin,
    manager: await userOf('manager', district.id),
    districtAdmin: await userOf('admin', district.id),
  };
}
