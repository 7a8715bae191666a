import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  keepUnitChoice,
  openUnits,
  readKeptUnitChoice,
  type AssessmentUnit,
} from '../assessment/unitChoice.ts';
import { useOrgUnits } from './useOrgUnits.ts';

/**
 * The units a new assessment may be done at, for step 1: the open units of the tree within the
 * user's scope, or, while the tree is loading or cannot be read (offline), those this device
 * last read; and the unit this user chose last on this device.
 */
export function useAssessmentUnits(userId: string): {
  /** Null while the units are not known and this device keeps none. */
  offered: AssessmentUnit[] | null;
  rememberedId: string | null;
  /** The tree could not be read (offline, or it failed) and this device keeps no units. */
  unavailable: boolean;
  /** Keeps the user's choice on this device for their next assessment. */
  remember: (unitId: string) => void;
} {
  const tree = useOrgUnits();
  // As kept when the wizard opened: the remembered unit is offered first, until one is chosen.
  const [kept] = useState(() => readKeptUnitChoice(userId));
  const fresh = useMemo(() => (tree.data === undefined ? null : openUnits(tree.data)), [tree.data]);
  const offered = fresh ?? kept.offered;

  useEffect(() => {
    if (fresh === null) return;
    keepUnitChoice(userId, { offered: fresh, chosenId: readKeptUnitChoice(userId).chosenId });
  }, [userId, fresh]);

  const remember = useCallback(
    (unitId: string) => keepUnitChoice(userId, { offered, chosenId: unitId }),
    [userId, offered],
  );

  const treeUnreadable = tree.isError || (tree.isPending && tree.fetchStatus === 'paused');
  return {
    offered,
    rememberedId: kept.chosenId,
    unavailable: offered === null && treeUnreadable,
    remember,
  };
}
