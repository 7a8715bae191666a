import { describe, expect, it } from 'vitest';
import { roles, type Role } from './api/users.ts';
import { can, permissions, type Action } from './permissions.ts';

/**
 * The role table of decisions.md section 1, transcribed row by row. Each cell is a test: the
 * policy must say yes exactly where the table does.
 */
const decisionsTable: ReadonlyArray<[string, Action[], Record<Role, boolean>]> = [
  [
    'create, update, view, list, search assessments; single report',
    [
      'assessment.create',
      'assessment.update',
      'assessment.view',
      'assessment.list',
      'assessment.report',
    ],
    { nurse: true, doctor: true, admin: true },
  ],
  ['sign off an assessment', ['assessment.signOff'], { nurse: true, doctor: true, admin: true }],
  [
    'doctor review: save, finalize (lock)',
    ['review.view', 'review.save', 'review.lock'],
    { nurse: false, doctor: true, admin: true },
  ],
  [
    'bulk report and CSV, FHIR export, code extractor',
    ['export.bulk', 'export.fhir', 'codes.extract'],
    { nurse: false, doctor: true, admin: true },
  ],
  [
    'delete an assessment that is not signed off',
    ['assessment.delete'],
    { nurse: true, doctor: true, admin: true },
  ],
  [
    'delete a signed-off assessment',
    ['assessment.deleteSignedOff'],
    { nurse: false, doctor: false, admin: true },
  ],
  [
    'manage users, read the audit trail, restore deleted assessments',
    ['users.manage', 'audit.read', 'assessment.restore', 'assessment.viewDeleted'],
    { nurse: false, doctor: false, admin: true },
  ],
  // Not in decisions.md: patient records (issue 17).
  [
    'read, search, create and update patient records',
    ['patient.view', 'patient.create', 'patient.update'],
    { nurse: true, doctor: true, admin: true },
  ],
  [
    'delete, restore and read deleted patient records',
    ['patient.delete', 'patient.restore', 'patient.viewDeleted'],
    { nurse: false, doctor: false, admin: true },
  ],
  // Not in decisions.md: worklists (issue 18).
  ['Awaiting Review worklist', ['worklist.review'], { nurse: false, doctor: true, admin: true }],
  ['Follow-up Due worklist', ['worklist.followUp'], { nurse: true, doctor: true, admin: true }],
  // Not in decisions.md: rule set versions (issue 19).
  ['read the rule set versions', ['ruleSet.view'], { nurse: true, doctor: true, admin: true }],
  [
    'read the rule set versions and their rules',
    ['ruleSet.view'],
    { nurse: true, doctor: true, admin: true },
  ],
  [
    'activate a rule set version',
    ['ruleSet.activate'],
    { nurse: false, doctor: false, admin: true },
  ],
  [
    "analyse a rule set version's impact",
    ['ruleSet.impact'],
    { nurse: false, doctor: true, admin: true },
  ],
  // decisions.md: the FHIR read API is a FHIR export, and follows that row.
  ['read the FHIR R4 API', ['fhir.read'], { nurse: false, doctor: true, admin: true }],
  // Not in decisions.md: the server's metrics (issue 22).
  ['read the server metrics', ['metrics.read'], { nurse: false, doctor: false, admin: true }],
];

describe('the role policy follows decisions.md section 1', () => {
  const cells = decisionsTable.flatMap(([row, actions, allowed]) =>
    roles.flatMap((role) =>
      actions.map((action) => ({ row, role, action, allowed: allowed[role] })),
    ),
  );

  it.each(cells)('$row: $role may $action = $allowed', ({ role, action, allowed }) => {
    expect(can(role, action)).toBe(allowed);
  });

  it('has no action outside the table except reporting browser errors', () => {
    const tabled = new Set(decisionsTable.flatMap(([, actions]) => actions));
    expect(Object.keys(permissions).filter((a) => !tabled.has(a as Action))).toEqual([
      'clientErrors.report',
    ]);
  });
});
