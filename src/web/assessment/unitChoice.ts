import { z } from 'zod';
import type { OrgUnitInTree } from '../api/org-units.ts';
import type { DraftStorage } from './draft.ts';

/**
 * Where an assessment is done (issue 36): step 1 asks for the unit when the user's scope holds two
 * open units or more, and sends the choice as `orgUnitId`. A user of one unit is asked nothing;
 * the server takes their unit.
 */

/** A unit step 1 may offer: an open unit within the user's scope. */
export interface AssessmentUnit {
  id: string;
  code: string;
  name: string;
}

/** How the unit select names a unit, e.g. 'Alder Clinic (F-A)'. */
export function assessmentUnitLabel(unit: AssessmentUnit): string {
  return `${unit.name} (${unit.code})`;
}

/** The units a new assessment may be done at: the open units of the tree, in its order. */
export function openUnits(tree: readonly OrgUnitInTree[]): AssessmentUnit[] {
  return tree
    .filter((unit) => unit.closedAt === null)
    .map(({ id, code, name }) => ({ id, code, name }));
}

/** Whether step 1 asks for the unit: only when there are two units or more to choose from. */
export function asksForUnit(offered: readonly AssessmentUnit[] | null): boolean {
  return offered !== null && offered.length >= 2;
}

/**
 * The unit a new assessment is sent with, given the units offered (null while they are not known:
 * loading, or offline before they were ever read on this device) and the unit chosen last on this
 * device. A unit offered stays chosen; one no longer offered is replaced by the remembered unit if
 * that is offered, else by none. With nothing to choose from, none is sent. While the units are
 * not known, the remembered unit stands in for none.
 */
export function resolveAssessmentUnit(
  current: string | null,
  offered: readonly AssessmentUnit[] | null,
  rememberedId: string | null,
): string | null {
  if (offered === null) return current ?? rememberedId;
  if (!asksForUnit(offered)) return null;
  const isOffered = (id: string | null) => id !== null && offered.some((unit) => unit.id === id);
  if (isOffered(current)) return current;
  return isOffered(rememberedId) ? rememberedId : null;
}

/** Whether step 1 waits for the unit: it asks for one and none of those offered is chosen. */
export function unitMissing(
  orgUnitId: string | null,
  offered: readonly AssessmentUnit[] | null,
): boolean {
  return asksForUnit(offered) && !(offered ?? []).some((unit) => unit.id === orgUnitId);
}

/**
 * What this device keeps for one user: the units last offered (so that step 1 offers them while
 * the tree cannot be read, offline) and the unit chosen last (offered first next time). Unit
 * names and codes, no patient data.
 */
export interface KeptUnitChoice {
  offered: AssessmentUnit[] | null;
  chosenId: string | null;
}

const noKeptChoice: KeptUnitChoice = { offered: null, chosenId: null };

const keptUnitChoiceSchema = z.object({
  offered: z.array(z.object({ id: z.string(), code: z.string(), name: z.string() })).nullable(),
  chosenId: z.string().nullable(),
});

export function unitChoiceKey(userId: string): string {
  return `triage.assessmentUnit.${userId}`;
}

// Storage can throw (blocked, full); without it step 1 simply remembers nothing.

export function readKeptUnitChoice(userId: string, storage?: DraftStorage): KeptUnitChoice {
  try {
    const text = (storage ?? localStorage).getItem(unitChoiceKey(userId));
    if (text === null) return noKeptChoice;
    const parsed = keptUnitChoiceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : noKeptChoice;
  } catch {
    return noKeptChoice;
  }
}

export function keepUnitChoice(userId: string, kept: KeptUnitChoice, storage?: DraftStorage): void {
  try {
    (storage ?? localStorage).setItem(unitChoiceKey(userId), JSON.stringify(kept));
  } catch {
    // See above.
  }
}
