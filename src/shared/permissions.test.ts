import { describe, expect, it } from 'vitest';
import { roles, type Role } from './api/users.ts';
import { can, permissions, type Action } from './permissions.ts';

/**
 * The role table of decisions.md section 1, transcribed row by row. Each cell is a test: the
 * policy must say yes exactly where the table does.
 */
const decisionsTable: ReadonlyArray<[string, Action[], Record<Role, boolean>]> = [
  [
    'create, update, view, list, search assessments; single report: view, list, search, report',
    ['assessment.view', 'assessment.list', 'assessment.report'],
    { nurse: true, doctor: true, admin: true, manager: true },
  ],
  [
    'create, update, view, list, search assessments; single report: create, update',
    ['assessment.create', 'assessment.update'],
    { nurse: true, doctor: true, admin: true, manager: false },
  ],
  [
    'sign off an assessment',
    ['assessment.signOff'],
    { nurse: true, doctor: true, admin: true, manager: false },
  ],
  [
    'doctor review: save, finalize (lock)',
    ['review.save', 'review.lock'],
    { nurse: false, doctor: true, admin: true, manager: false },
  ],
  // A manager reads what a doctor reads: the review too.
  [
    'doctor review: read',
    ['review.view'],
    { nurse: false, doctor: true, admin: true, manager: true },
  ],
  [
    'bulk report and CSV, FHIR export, code extractor',
    ['export.bulk', 'export.fhir', 'codes.extract'],
    { nurse: false, doctor: true, admin: true, manager: true },
  ],
  [
    'delete an assessment that is not signed off',
    ['assessment.delete'],
    { nurse: true, doctor: true, admin: true, manager: false },
  ],
  [
    'delete a signed-off assessment',
    ['assessment.deleteSignedOff'],
    { nurse: false, doctor: false, admin: true, manager: false },
  ],
  [
    'manage users, restore deleted assessments',
    ['users.manage', 'assessment.restore', 'assessment.viewDeleted'],
    { nurse: false, doctor: false, admin: true, manager: false },
  ],
  // decisions.md: a manager reads the audit trail of the units' users.
  [
    'read the audit trail',
    ['audit.read'],
    { nurse: false, doctor: false, admin: true, manager: true },
  ],
  // Not in decisions.md: patient records (issue 17).
  [
    'read and search patient records',
    ['patient.view'],
    { nurse: true, doctor: true, admin: true, manager: true },
  ],
  [
    'create and update patient records',
    ['patient.create', 'patient.update'],
    { nurse: true, doctor: true, admin: true, manager: false },
  ],
  [
    'delete, restore and read deleted patient records',
    ['patient.delete', 'patient.restore', 'patient.viewDeleted'],
    { nurse: false, doctor: false, admin: true, manager: false },
  ],
  // Not in decisions.md: worklists (issue 18).
  [
    'Awaiting Review worklist',
    ['worklist.review'],
    { nurse: false, doctor: true, admin: true, manager: true },
  ],
  [
    'Follow-up Due worklist',
    ['worklist.followUp'],
    { nurse: true, doctor: true, admin: true, manager: true },
  ],
  // Not in decisions.md: rule set versions (issue 19).
  [
    'read the rule set versions and their rules',
    ['ruleSet.view'],
    { nurse: true, doctor: true, admin: true, manager: true },
  ],
  [
    'activate a rule set version',
    ['ruleSet.activate'],
    { nurse: false, doctor: false, admin: true, manager: false },
  ],
  [
    "analyse a rule set version's impact",
    ['ruleSet.impact'],
    { nurse: false, doctor: true, admin: true, manager: true },
  ],
  // decisions.md: the FHIR read API is a FHIR export, and follows that row.
  [
    'read the FHIR R4 API',
    ['fhir.read'],
    { nurse: false, doctor: true, admin: true, manager: true },
  ],
  // Not in decisions.md: the server's metrics (issue 22).
  [
    'read the server metrics',
    ['metrics.read'],
    { nurse: false, doctor: false, admin: true, manager: false },
  ],
  // Not in decisions.md: organisation units (issue 36).
  [
    'read the tree of organisation units',
    ['orgUnit.view'],
    { nurse: true, doctor: true, admin: true, manager: true },
  ],
  [
    "a unit's roll-up (the District page)",
    ['orgUnit.summary'],
    { nurse: false, doctor: true, admin: true, manager: true },
  ],
  [
    'make, change and close organisation units',
    ['orgUnit.manage'],
    { nurse: false, doctor: false, admin: true, manager: false },
  ],
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
